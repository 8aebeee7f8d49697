/**
 * The `.sentryclirc` format of the Sentry tools: INI with `[auth] token` and `[defaults]` `url`,
 * `org`, `project`. Keys and section names are case-insensitive, values may be quoted, `#` and
 * `;` start comments, a byte-order mark is skipped.
 */

/** The values tracker takes from a Sentry configuration file (raw text, trimmed, never empty). */
export interface ConfigValues {
  token?: string;
  url?: string;
  org?: string;
  project?: string;
  /** `[auth] dsn`, where sentry-cli users keep the DSN of `send-event` and `monitors run`. */
  dsn?: string;
}

/** Which `section.key` of a configuration file feeds which value. */
export const CONFIG_KEYS: Readonly<Record<string, keyof ConfigValues>> = {
  "auth.token": "token",
  "defaults.url": "url",
  "defaults.org": "org",
  "defaults.project": "project",
  "auth.dsn": "dsn",
};

/** A value without its surrounding quotes, or (unquoted) without a trailing ` #`/` ;` comment. */
function unquote(raw: string): string {
  const v = raw.trim();
  const q = v[0];
  if ((q === '"' || q === "'") && v.length >= 2 && v.endsWith(q)) return v.slice(1, -1);
  return v.replace(/\s[#;].*$/, "").trim();
}

/** Parses `.sentryclirc` text; unknown sections and keys are ignored, the last duplicate wins. */
export function parseSentryclirc(text: string): ConfigValues {
  const out: ConfigValues = {};
  let section = "";
  for (const rawLine of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*([^\]]*?)\s*\]/.exec(line);
    if (header) {
      section = (header[1] ?? "").toLowerCase();
      continue;
    }
    const eq = line.search(/[=:]/);
    if (eq <= 0) continue;
    const key = CONFIG_KEYS[`${section}.${line.slice(0, eq).trim().toLowerCase()}`];
    const value = unquote(line.slice(eq + 1));
    if (key && value !== "") out[key] = value;
  }
  return out;
}
