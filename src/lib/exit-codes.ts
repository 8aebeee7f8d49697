/**
 * The documented exit codes: one per error category, so scripts and agents branch on the code
 * without parsing stderr. README.md and SKILL.md print EXIT_CODE_TABLE (a test keeps them in step).
 */

/** Exit codes by category. The same table is printed in README.md and SKILL.md. */
export const EXIT = {
  success: 0,
  unexpected: 1,
  usage: 2,
  notAuthenticated: 10,
  authExpired: 11,
  authInvalid: 12,
  hostScope: 13,
  config: 20,
  validation: 21,
  context: 22,
  resolution: 23,
  api: 30,
  network: 31,
  analysisNotEnabled: 40,
  analysisNoBudget: 41,
  analysisAiDisabled: 42,
  analysisFailed: 43,
  upgrade: 50,
  deviceFlow: 51,
  cancelled: 130,
  terminated: 143,
} as const;

/** One row of the documented exit-code table. */
export interface ExitCodeDoc {
  code: number;
  name: string;
  when: string;
  action: string;
}

/** The documented exit codes, in order; README.md and SKILL.md print this table. */
export const EXIT_CODE_TABLE: readonly ExitCodeDoc[] = [
  { code: 0, name: "success", when: "the command worked (an empty list is success)", action: "use stdout" },
  {
    code: 1,
    name: "unexpected",
    when: "an unexpected internal failure",
    action: "rerun with --log-level debug and report it",
  },
  {
    code: 2,
    name: "usage",
    when: "unknown command, unknown flag, missing argument",
    action: "fix the command line (see --help)",
  },
  {
    code: 10,
    name: "not_authenticated",
    when: "no token found",
    action: "run `tracker auth login` or set TRACKER_AUTH_TOKEN",
  },
  {
    code: 11,
    name: "auth_expired",
    when: "the session expired and could not be refreshed",
    action: "run `tracker auth login` again",
  },
  {
    code: 12,
    name: "auth_invalid",
    when: "the token is malformed or was rejected",
    action: "create a new token",
  },
  {
    code: 13,
    name: "host_scope",
    when: "stored credentials belong to another service URL",
    action: "log in to this URL or unset TRACKER_URL",
  },
  {
    code: 20,
    name: "config",
    when: "bad environment variable, config or local database problem",
    action: "follow the Suggestion line",
  },
  {
    code: 21,
    name: "validation",
    when: "a malformed argument or flag value",
    action: "fix the value as the message says",
  },
  {
    code: 22,
    name: "missing_context",
    when: "organization or project could not be determined",
    action: "pass `<org>/<project>` or set defaults",
  },
  {
    code: 23,
    name: "not_found",
    when: "an identifier could not be resolved",
    action: "check the slug or ID (slugs are case-sensitive)",
  },
  {
    code: 30,
    name: "api",
    when: "the service answered with an error",
    action: "read the detail line; 403 means missing scopes",
  },
  {
    code: 31,
    name: "network",
    when: "connection, TLS or timeout failure (the service or the release server)",
    action: "check the network, proxy and TRACKER_URL (TRACKER_RELEASE_URL for upgrades); retry",
  },
  {
    code: 40,
    name: "analysis_not_enabled",
    when: "AI analysis is not enabled for the organization",
    action: "enable it at the printed settings URL",
  },
  {
    code: 41,
    name: "analysis_no_budget",
    when: "AI analysis needs a paid plan",
    action: "see the printed billing URL",
  },
  {
    code: 42,
    name: "analysis_ai_disabled",
    when: "AI features are disabled in organization settings",
    action: "change the printed setting",
  },
  { code: 43, name: "analysis_failed", when: "the AI analysis failed or timed out", action: "retry later" },
  {
    code: 50,
    name: "upgrade",
    when: "the upgrade failed (bad release, checksum, self-test, install method)",
    action: "read the reason; the old binary is intact",
  },
  {
    code: 51,
    name: "device_flow",
    when: "the OAuth device flow failed",
    action: "run `tracker auth login` again or use --token",
  },
  {
    code: 130,
    name: "cancelled",
    when: "an interactive prompt or a run was cancelled (Ctrl-C)",
    action: "nothing was changed; run the command again",
  },
  {
    code: 143,
    name: "terminated",
    when: "the run was stopped by SIGTERM",
    action: "nothing stored is half-written; run the command again",
  },
];
