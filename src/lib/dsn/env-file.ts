/** `.env` file parsing and the file-name rules for which `.env*` files count and in what order. */

/**
 * Parses dotenv text: `KEY=value`, optional `export `, `#` comments (whole-line, or after an
 * unquoted value following whitespace), single/double/backtick quotes, blank values. Later keys win.
 */
export function parseEnvText(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1] as string;
    let rest = m[2] as string;
    const q = rest[0];
    if (q === '"' || q === "'" || q === "`") {
      let end = findClosingQuote(rest, q, 1);
      // A double-quoted value may span lines in dotenv; join until the closing quote. Only the
      // new part is searched each time, and a value never grows past MAX_MULTILINE_CHARS, so an
      // unterminated quote in a huge file costs one pass, not one pass per line.
      while (end < 0 && q === '"' && i + 1 < lines.length && rest.length < MAX_MULTILINE_CHARS) {
        const from = rest.length;
        rest += `\n${lines[++i]}`;
        end = findClosingQuote(rest, q, from);
      }
      const inner = end < 0 ? rest.slice(1) : rest.slice(1, end);
      out.set(key, q === '"' ? inner.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1") : inner);
      continue;
    }
    const hash = rest.search(/\s#/);
    if (hash >= 0) rest = rest.slice(0, hash);
    out.set(key, rest.trim());
  }
  return out;
}

/** The longest multi-line quoted value read (a DSN is a line; this is generous). */
export const MAX_MULTILINE_CHARS = 64 * 1024;

function findClosingQuote(s: string, q: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === "\\" && q === '"') {
      i++;
      continue;
    }
    if (s[i] === q) return i;
  }
  return -1;
}

/** Variable names that hold a DSN: TRACKER_DSN, SENTRY_DSN and framework-prefixed forms (NEXT_PUBLIC_SENTRY_DSN, ...). */
export function isDsnVariable(name: string): boolean {
  return /^(?:[A-Z0-9_]+_)?(?:TRACKER|SENTRY)_DSN$/.test(name) || name === "DSN";
}

const TEMPLATE_SUFFIXES = new Set(["example", "sample", "template", "dist", "defaults", "schema", "vault"]);

/**
 * Rank of a `.env*` file name within one directory (lower = higher priority), or undefined when the
 * file is not a real env file (`.env.example` and friends hold placeholders, not the project's DSN).
 * Order: `.env.<mode>.local`, `.env.local`, `.env.<mode>`, `.env`, then other modes.
 */
export function envFileRank(name: string, mode: string): number | undefined {
  if (name === ".env") return 3;
  const m = /^\.env\.([A-Za-z0-9_-]+)(\.local)?$/.exec(name);
  if (!m) return undefined;
  const part = (m[1] as string).toLowerCase();
  const local = !!m[2];
  if (TEMPLATE_SUFFIXES.has(part)) return undefined;
  if (part === "local" && !local) return 1;
  if (part === mode) return local ? 0 : 2;
  return local ? 4 : 5;
}
