/**
 * `sentry.properties` (written by the Android and React Native wizards): Java properties with
 * `defaults.url`, `defaults.org`, `defaults.project`, `auth.token`, parsed Java-style (escapes
 * such as `https\://`, `\uXXXX`, line continuations, `#`/`!` comments).
 */
import { CONFIG_KEYS, type ConfigValues } from "./sentryclirc.ts";

const ESCAPES: Readonly<Record<string, string>> = { t: "\t", n: "\n", r: "\r", f: "\f" };

/** Joins continued lines (an odd number of trailing backslashes) into logical lines. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let pending = "";
  for (const physical of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = physical.trimStart();
    if (pending === "" && (line.startsWith("#") || line.startsWith("!"))) continue;
    const trailing = /\\*$/.exec(line)?.[0].length ?? 0;
    if (trailing % 2 === 1) {
      pending += line.slice(0, -1);
      continue;
    }
    out.push(pending + line);
    pending = "";
  }
  if (pending !== "") out.push(pending);
  return out;
}

/** Undoes Java escapes: `\t \n \r \f`, `\uXXXX`, and `\x` for any other x. */
function unescapeJava(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_m, e: string) =>
    e.length === 5 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
}

/** Every key/value pair of properties text, keys unescaped, later duplicates winning. */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of logicalLines(text)) {
    if (line.trim() === "") continue;
    // The key ends at the first unescaped `=`, `:` or whitespace.
    const m = /^((?:\\.|[^\\=:\s])*)\s*[=:]?\s*(.*)$/s.exec(line);
    if (!m) continue;
    out.set(unescapeJava(m[1] ?? ""), unescapeJava(m[2] ?? ""));
  }
  return out;
}

/** The values tracker takes from `sentry.properties` text (keys matched case-insensitively). */
export function parseSentryProperties(text: string): ConfigValues {
  const out: ConfigValues = {};
  for (const [k, v] of parseProperties(text)) {
    const key = CONFIG_KEYS[k.trim().toLowerCase()];
    const value = v.trim();
    if (key && value !== "") out[key] = value;
  }
  return out;
}
