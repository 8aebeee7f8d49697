/**
 * `tracker help sentry-cli`: every sentry-cli form tracker accepts with its tracker counterpart,
 * generated from the same table the translation uses (forms.ts), so the two cannot drift.
 */
import { FORMS } from "./forms.ts";
import { SENTRY_CLI_VERSION_LINE } from "./translate.ts";
import type { CompatFlag } from "./types.ts";

/** sentry-cli's global flags and what each becomes, as the topic lists them. */
export const SENTRY_CLI_GLOBALS: readonly (readonly [string, string])[] = [
  ["--auth-token <token>", "the token of this run (as TRACKER_AUTH_TOKEN)"],
  ["--url <url>", "the service URL (as TRACKER_URL); before the command, as sentry-cli reads it"],
  ["-o, --org <org>", "the organization (as TRACKER_ORG)"],
  ["-p, --project <slug>", "the project (as TRACKER_PROJECT; releases new: one -p per project)"],
  [
    "--header 'K: V'",
    "sent on every API request to the service, never to other hosts (repeatable; also SENTRY_CUSTOM_HEADERS, one per line, and sentry-cli's CUSTOM_HEADER)",
  ],
  ["--log-level <level>", "tracker's --log-level (also SENTRY_LOG_LEVEL)"],
  ["--quiet, --silent", "nothing on stdout; errors still on stderr"],
  ["--allow-failure", "a failure (not a usage error) is a warning and exit 0 (also SENTRY_ALLOW_FAILURE=1)"],
  ["--version, -V", `prints '${SENTRY_CLI_VERSION_LINE}' (the command line tracker follows)`],
];

function flagText(f: CompatFlag): string {
  const names = f.names.join("/");
  if (f.missing) return `${names}: none (${f.missing})`;
  if (f.env) return `${names} → ${f.env}`;
  if (f.read) return `${names} → ${f.read}`;
  if (f.to) return `${names} → ${f.to}${f.join ? " (joined)" : ""}${f.note ? ` (${f.note})` : ""}`;
  return `${names}: no effect${f.note ? ` (${f.note})` : ""}`;
}

/** The topic's lines (unwrapped). */
export function sentryCliHelpLines(): string[] {
  const width = Math.max(...SENTRY_CLI_GLOBALS.map(([k]) => k.length));
  const lines = [
    "SENTRY-CLI COMMAND LINES",
    "",
    "  Run as `sentry-cli` (a link made by `tracker cli setup --sentry-cli-link`)",
    "  or as `tracker sentry-cli <args>`, tracker reads sentry-cli's command line:",
    "  CI files and build plugins that run sentry-cli (SENTRY_CLI_BINARY) work",
    "  unchanged. Typed as tracker's own (`tracker releases new`), these forms get",
    "  a suggestion instead.",
    "",
    "GLOBAL FLAGS",
    ...SENTRY_CLI_GLOBALS.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    "",
    "COMMANDS (sentry-cli form → tracker form; flags the form does not list are an error)",
  ];
  for (const form of FORMS) {
    lines.push("", `  sentry-cli ${form.words}`);
    lines.push(
      form.missing ? `    no counterpart; closest: ${form.missing}` : `    → tracker ${form.tracker}`,
    );
    if (form.passthrough) lines.push("    flags are passed on as they are");
    const flags = (form.flags ?? []).filter(
      (f) => !f.names.includes("--org") && !f.names.includes("--project"),
    );
    if (flags.length > 0) lines.push(`    ${flags.map(flagText).join("; ")}`);
  }
  lines.push(
    "",
    "  send-event sends environment production unless -E is given, and never the process environment.",
  );
  return lines;
}
