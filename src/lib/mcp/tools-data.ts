/**
 * MCP read tools over the data commands: logs, spans, aggregate queries, issue tags, releases and
 * "my plate" status. Each runs its CLI command in-process like the issue tools; descriptions stay terse (the
 * whole tools/list answer is kept under 10 KB).
 */
import {
  ENV_PROP,
  int,
  LIST_FLAGS,
  one,
  opt,
  pos,
  schema,
  str,
  type ToolArgs,
  type ToolSpec,
  WINDOW_PROPS,
  windowArgs,
} from "./tool-kit.ts";

const strings = { type: "array", items: { type: "string" } };

/** Repeated `-F field` pairs for a query's fields. */
function fieldFlags(a: ToolArgs): string[] {
  return (Array.isArray(a.select) ? (a.select as string[]) : []).flatMap((f) => ["--field", String(f)]);
}

/** The data tools (all read-only). */
export const DATA_TOOLS: readonly ToolSpec[] = [
  {
    name: "log_search",
    title: "Search logs",
    description: "Logs of a target, newest first.",
    inputSchema: schema({
      target: str(),
      query: str(),
      limit: int(1, 1000),
      ...WINDOW_PROPS,
      trace: str(),
      sort: { enum: ["newest", "oldest"] },
      cursor: str(),
    }),
    run: (a) =>
      one(
        [
          "log",
          "list",
          ...opt(a, {
            query: "--query",
            limit: "--limit",
            trace: "--trace",
            sort: "--sort",
            cursor: "--cursor",
          }),
          ...windowArgs(a),
        ],
        pos(a.target),
      ),
  },
  {
    name: "span_search",
    title: "Search spans",
    description: "Spans; sort duration for slow ones.",
    inputSchema: schema({
      target: str(),
      query: str(),
      sort: { enum: ["newest", "duration"] },
      limit: int(1, 1000),
      ...WINDOW_PROPS,
      trace: str(),
      cursor: str(),
    }),
    run: (a) =>
      one(
        [
          "span",
          "list",
          ...opt(a, {
            query: "--query",
            sort: "--sort",
            limit: "--limit",
            trace: "--trace",
            cursor: "--cursor",
          }),
          ...windowArgs(a),
        ],
        pos(a.target),
      ),
  },
  {
    name: "query",
    title: "Query events",
    description: "Aggregate table or time series.",
    inputSchema: schema(
      {
        target: str(),
        dataset: { enum: ["errors", "spans", "logs"] },
        select: strings,
        query: str(),
        sort: str(),
        limit: int(1, 100),
        ...WINDOW_PROPS,
        interval: str(),
        cursor: str(),
      },
      ["dataset", "select"],
    ),
    run: (a) =>
      one(
        [
          "query",
          "--dataset",
          String(a.dataset),
          ...fieldFlags(a),
          ...opt(a, { query: "--query", limit: "--limit", interval: "--interval", cursor: "--cursor" }),
          ...windowArgs(a),
          ...(typeof a.sort === "string" ? [`--sort=${a.sort}`] : []),
        ],
        pos(a.target),
      ),
  },
  {
    name: "issue_tags",
    title: "Issue tags",
    description: "An issue's tags and top values.",
    inputSchema: schema({ issue: str(), key: str(), limit: int(1, 1000), cursor: str() }, ["issue"]),
    run: (a) => one(["issue", "tags", ...opt(a, LIST_FLAGS)], [String(a.issue), ...pos(a.key)]),
  },
  {
    name: "release_list",
    title: "List releases",
    description: "Releases of a target.",
    inputSchema: schema({
      target: str(),
      query: str(),
      limit: int(1, 1000),
      sort: { enum: ["date", "sessions", "users", "crash_free_sessions"] },
      ...ENV_PROP,
      cursor: str(),
    }),
    run: (a) =>
      one(["release", "list", ...opt(a, { ...LIST_FLAGS, sort: "--sort" }), ...windowArgs(a)], pos(a.target)),
  },
  {
    name: "attribute_list",
    title: "List query fields",
    description: "Fields and tags a query can use, with types.",
    inputSchema: schema(
      {
        target: str(),
        dataset: { enum: ["spans", "logs", "errors"] },
        query: str(),
        limit: int(1, 1000),
        ...WINDOW_PROPS,
        cursor: str(),
      },
      ["dataset"],
    ),
    run: (a) =>
      one(
        ["attribute", "list", "--dataset", String(a.dataset), ...opt(a, LIST_FLAGS), ...windowArgs(a)],
        pos(a.target),
      ),
  },
  {
    name: "release_view",
    title: "View a release",
    description: "One release with deploys and commits.",
    inputSchema: schema({ version: str(), org: str() }, ["version"]),
    run: (a) => one(["release", "view"], [String(a.version), ...pos(a.org)]),
  },
  {
    name: "status",
    title: "My plate",
    description: "Assigned to me, regressed, new.",
    inputSchema: schema({ orgs: strings, limit: int(1, 100) }),
    // Each run moves the org's "new since" time: not idempotent, but it changes nothing on the service.
    run: (a) =>
      one(["status", ...opt(a, { limit: "--limit" })], Array.isArray(a.orgs) ? (a.orgs as string[]) : []),
  },
];
