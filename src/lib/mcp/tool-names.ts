/**
 * The MCP tools' names, for `tracker mcp --help`: the route map loads this on every start, so it
 * holds names only, not the registry (tools.ts and the modules it pulls in). test/e2e/help.test.ts
 * keeps it equal to the registry.
 */

/** Tools every server offers. */
export const READ_TOOL_NAMES = [
  "issue_list",
  "issue_view",
  "issue_events",
  "event_view",
  "issue_explain",
  "issue_plan",
  "trace_list",
  "trace_view",
  "org_list",
  "project_list",
  "resolve_url",
  "log_search",
  "span_search",
  "query",
  "issue_tags",
  "release_list",
  "attribute_list",
  "release_view",
  "status",
  "issue_activity",
  "issue_timeline",
  "feedback_list",
  "feedback_view",
  "replay_list",
  "replay_view",
] as const;

/** Tools offered with --allow-writes. */
export const WRITE_TOOL_NAMES = ["issue_update", "issue_note"] as const;
