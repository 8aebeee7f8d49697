/**
 * The finishing of help text (Stricli renders it; this module is loaded only for help): a GLOBAL
 * FLAGS section instead of the global flags on every usage line, an ENVIRONMENT section in the
 * root help, and every line wrapped at word boundaries to the terminal width (80 when piped).
 */

/** Flags every command accepts (hidden from each command's own FLAGS; main handles most of them). */
const GLOBAL_FLAGS: readonly (readonly [string, string])[] = [
  ["--json", "Print one JSON document on stdout (errors: one JSON object on stderr)"],
  ["--jq <program>", "Filter the JSON document with jq (implies --json; strings print raw)"],
  ["--fields <a,b.c>", "Keep only these fields of the JSON document (dot paths)"],
  ["--format md", "Markdown sized for a language model (views, analyses, lists)"],
  ["--max-chars <n>", "Bound the output; says what was left out"],
  ["--verbose", "Same as --log-level debug"],
  ["--log-level <level>", "error, warn, info (default), debug or trace, on stderr"],
  ["-h, --help", "Help for any command (also: tracker help <command>)"],
];

/** Every variable tracker reads at run time. */
export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ["TRACKER_AUTH_TOKEN", "API token; wins over TRACKER_TOKEN and stored logins (use in CI)"],
  ["TRACKER_TOKEN", "Lower-precedence API token"],
  ["TRACKER_URL", "Self-hosted service address (default https://sentry.io)"],
  ["TRACKER_CLIENT_ID", "OAuth client ID for the device-flow login on a self-hosted service"],
  ["TRACKER_ALLOW_HTTP", "1: use a plain-http URL or DSN found in a repository's files"],
  ["TRACKER_ORG", "Default organization slug"],
  ["TRACKER_PROJECT", "Default project slug"],
  ["TRACKER_DSN", "A DSN to detect the project from"],
  ["SENTRY_AUTH_TOKEN", "API token below TRACKER_AUTH_TOKEN/TRACKER_TOKEN, above stored logins"],
  ["SENTRY_URL", "Service address when TRACKER_URL is unset"],
  ["SENTRY_ORG, SENTRY_PROJECT", "Default organization/project when TRACKER_ORG/TRACKER_PROJECT are unset"],
  ["SENTRY_DSN", "A DSN to detect the project from when TRACKER_DSN is unset"],
  ["SENTRY_PROPERTIES", "Path of a sentry.properties file (default: ./sentry.properties)"],
  ["SENTRY_CUSTOM_HEADERS", "'Name: value' lines sent on every request to the service (an access proxy)"],
  ["TRACKER_CONFIG_DIR", "Directory of local state (default ~/.config/tracker-cli)"],
  ["TRACKER_OUTPUT", "json: JSON output and JSON errors by default"],
  ["TRACKER_LOG_LEVEL", "error, warn, info, debug or trace (--log-level wins)"],
  ["TRACKER_PAGER", "Pager for long output on a terminal (then PAGER; empty: none)"],
  ["TRACKER_CLI_NO_AUTO_REPAIR", "1: do not repair the local database automatically"],
  ["TRACKER_RELEASE_URL", "Where tracker upgrade looks for releases (a mirror)"],
  ["TRACKER_INSTALL_DIR", "Where the install script put the binary (default ~/.tracker/bin)"],
  ["TRACKER_PROMPT_DISABLED", "1: never prompt, page or spin (as CI or an agent's variable does)"],
  ["TRACKER_FORCE_TTY", "1: terminal output even when stdout is not a terminal"],
  ["CI, CLAUDECODE, AGENT …", "Agent/CI mode: no pager, spinner or prompt (changes need --yes)"],
  ["NO_COLOR", "Any value turns colour off"],
  ["HTTPS_PROXY, NO_PROXY", "Proxy for API requests"],
  ["NODE_EXTRA_CA_CERTS", "Extra CA bundle (PEM) for a private certificate authority"],
];

function section(title: string, rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return [title, ...rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`)].join("\n");
}

/**
 * Where a wrapped line's continuation starts: under the description column of an aligned row
 * (`  -n [--limit]  Number…`: the text after the first gap of two or more spaces), else four
 * columns in from the line's own indentation.
 */
function hangingIndent(line: string): number {
  const lead = line.length - line.trimStart().length;
  const gap = /\S( {2,})(?=\S)/.exec(line.slice(lead));
  if (gap) return lead + gap.index + 1 + (gap[1]?.length ?? 0);
  return lead === 0 ? 0 : lead + 4;
}

/** One line wrapped at spaces to `width` columns; a word longer than the width stays whole. */
export function wrapLine(line: string, width: number): string[] {
  if (Bun.stringWidth(line) <= width) return [line];
  let indent = hangingIndent(line);
  if (indent > width / 2) indent = Math.min(line.length - line.trimStart().length + 4, Math.floor(width / 2));
  const pad = " ".repeat(indent);
  const out: string[] = [];
  let rest = line;
  let first = true;
  while (Bun.stringWidth(rest) > width) {
    const lead = first ? 0 : indent;
    let cut = -1;
    for (let i = Math.min(rest.length - 1, width); i > lead; i--) {
      if (rest[i] === " " && Bun.stringWidth(rest.slice(0, i)) <= width) {
        cut = i;
        break;
      }
    }
    // A long alternation of subcommands (list|view|…) breaks after a bar.
    for (let i = Math.min(rest.length - 1, width); cut < 0 && i > lead + 1; i--) {
      if (rest[i - 1] === "|" && Bun.stringWidth(rest.slice(0, i)) <= width) cut = i;
    }
    if (cut < 0) {
      const next = rest.indexOf(" ", lead + 1);
      if (next < 0) break;
      cut = next;
    }
    out.push(rest.slice(0, cut).trimEnd());
    rest = pad + rest.slice(cut).trimStart();
    first = false;
  }
  out.push(rest);
  return out;
}

/** Help text as shown: the sections added, every line wrapped to `width`. */
export function finishHelp(text: string, width: number, root: boolean): string {
  if (!text.startsWith("USAGE")) return text;
  const parts = [text.trimEnd(), section("GLOBAL FLAGS", GLOBAL_FLAGS)];
  if (root) parts.push(section("ENVIRONMENT", ENVIRONMENT));
  return wrapHelp(parts.join("\n\n"), width);
}

/** Finished help text (unwrapped) with every line wrapped to `width` columns (at least 40). */
export function wrapHelp(text: string, width: number): string {
  const lines = text.trimEnd().split("\n");
  return `${lines.flatMap((line) => wrapLine(line, Math.max(width, 40))).join("\n")}\n`;
}
