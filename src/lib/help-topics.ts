/**
 * `tracker help <topic>`: the reference pages that are not one command's help. `environment`
 * (every variable, what it does, its precedence), `exit-codes` (the table scripts branch on) and
 * `query` (the search syntax with examples), `sentry-cli` (the sentry-cli forms tracker accepts).
 * Loaded only for these runs.
 */
import { EXIT_CODE_TABLE } from "./exit-codes.ts";
import { ENVIRONMENT, wrapLine } from "./help-format.ts";
import { sentryCliHelpLines } from "./sentry-cli/help.ts";

/** The topics, in the order `tracker help` lists them. */
export const HELP_TOPICS = ["environment", "exit-codes", "query", "sentry-cli"] as const;
/** One of HELP_TOPICS. */
export type HelpTopic = (typeof HELP_TOPICS)[number];

/** True when `word` names a topic (not a command). */
export function isHelpTopic(word: string | undefined): word is HelpTopic {
  return (HELP_TOPICS as readonly string[]).includes(word ?? "");
}

function rows(list: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...list.map(([name]) => name.length));
  return list.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
}

/**
 * Which source wins, one logical line per setting: wrapLine breaks each at the terminal's width
 * with the continuation under the text (pre-broken lines were broken again at 80 columns).
 */
const PRECEDENCE: readonly (readonly [string, string])[] = [
  [
    "Token:",
    "--token (auth login) > TRACKER_AUTH_TOKEN > TRACKER_TOKEN > SENTRY_AUTH_TOKEN > the stored login of the service > a .sentryclirc/sentry.properties token (sent only to that file's URL). Environment tokens are never stored.",
  ],
  [
    "Service:",
    "an org token's own URL > TRACKER_URL > SENTRY_URL > the only stored login > a config file's url (never for an environment token: exit 20) > https://sentry.io. auth login: --url > TRACKER_URL > SENTRY_URL > https://sentry.io.",
  ],
  [
    "Target:",
    "the command's argument > TRACKER_ORG/TRACKER_PROJECT > SENTRY_ORG/SENTRY_PROJECT > tracker defaults (--here, then global) and .sentryclirc/sentry.properties > the org token's organization > a DSN (TRACKER_DSN, SENTRY_DSN, .env files, source code).",
  ],
  ["Output:", "--json/--no-json > TRACKER_OUTPUT; NO_COLOR turns colour off."],
  [
    "Agents:",
    "CI, TRACKER_PROMPT_DISABLED=1 or an agent's variable (CLAUDECODE, CURSOR_AGENT, CODEX_SANDBOX, GEMINI_CLI, AGENT): no pager, spinner or prompt; changes need --yes.",
  ],
];

function environment(): string[] {
  return [
    "ENVIRONMENT",
    "",
    ...rows(ENVIRONMENT),
    "",
    "PRECEDENCE",
    ...PRECEDENCE.map(([label, text]) => `  ${label.padEnd(8)}  ${text}`),
  ];
}

function exitCodes(): string[] {
  const width = Math.max(...EXIT_CODE_TABLE.map((r) => r.name.length));
  return [
    "EXIT CODES (the same with --json: errors are then one JSON object on stderr)",
    "",
    ...EXIT_CODE_TABLE.map(
      (r) => `  ${String(r.code).padStart(3)}  ${r.name.padEnd(width)}  ${r.when}; ${r.action}`,
    ),
  ];
}

function query(): string[] {
  return [
    "SEARCH QUERIES (-q, --query): the service's search syntax",
    "",
    "  key:value              level:error, environment:production, release:web@1.4.0",
    "  !key:value             not: !environment:staging",
    "  key:[a, b]             any of: level:[error, fatal]",
    "  key:>N  key:<=N        numbers and dates: times_seen:>100, firstSeen:>=2026-01-01",
    "  key:-24h               relative times: lastSeen:-24h, age:-7d",
    '  key:"a b"  key:*txt*    quoted values, wildcards: message:"out of memory", url:*checkout*',
    "  free text              matched against the title and message",
    "  AND, OR, ( )           combine (spans, logs and queries)",
    "",
    "  Issues:  is:unresolved | is:resolved | is:ignored | is:regressed | is:new | is:escalating",
    "           assigned:me | assigned:my_teams | assigned:[me, my_teams] | assigned:none",
    "           assigned:#team | assigned:user@example.com | has:user | issue.category:error",
    '  Spans:   span.op:db, span.duration:>500ms, transaction:"GET /api/users", is_transaction:true',
    "  Logs:    severity:error, message:*timeout*, trace:<trace id>",
    "",
    "TIME WINDOWS (-t, --period; --start, --end) and ENVIRONMENTS (-e)",
    "",
    "  30s 5m 2h 1d 1w        the last <n> units (also --interval and status --since)",
    "  A..B                   2026-11-20T14:00..2026-11-20T15:30, 2026-11-20..2026-11-21",
    "  >=D  >D  <=D  <D       from D (or the day after) until now; the 90 days up to D",
    "  --start -2h --end now  ISO 8601 or a time ago; no zone = UTC",
    "  -e prod -e staging     only these environments (default: defaults set -e)",
    "",
    "EXAMPLES",
    "  tracker issue list -q 'is:unresolved assigned:me level:error'",
    "  tracker issue resolve -q 'is:unresolved release:web@1.4.0' --dry-run",
    "  tracker trace list -q 'transaction:\"GET /api/users\"' -s duration",
    "  tracker issue list -t 2026-11-20T14:00..2026-11-20T15:30 -e production",
  ];
}

/** The text of a topic, wrapped to `width`. */
export function helpTopic(topic: HelpTopic, width: number): string {
  const lines =
    topic === "sentry-cli"
      ? sentryCliHelpLines()
      : topic === "environment"
        ? environment()
        : topic === "exit-codes"
          ? exitCodes()
          : query();
  return `${lines.flatMap((l) => wrapLine(l, width)).join("\n")}\n`;
}
