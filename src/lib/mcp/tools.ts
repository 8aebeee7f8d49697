/**
 * The MCP tools: each mirrors one CLI verb and is run as that verb's command line, in-process, so
 * the tools share the CLI's authentication, resolution, caches, retries, errors and JSON shapes.
 * Descriptions are terse on purpose: the whole `tools/list` answer stays under 10 KB, and the
 * conventions every tool shares are explained once in the server's instructions.
 */
import { parseServiceUrl } from "../resolve/url.ts";
import {
  type ArgSchema,
  bool,
  forced,
  type Invocation,
  int,
  LIST_FLAGS,
  one,
  OUTPUT_PROPS,
  opt,
  pos,
  schema,
  str,
  type ToolArgs,
  type ToolSpec,
  WINDOW_PROPS,
  windowArgs,
} from "./tool-kit.ts";
import { DATA_TOOLS } from "./tools-data.ts";
import { INCIDENT_TOOLS } from "./tools-incidents.ts";

export { type ArgSchema, type Invocation, OUTPUT_PROPS, type ToolArgs, type ToolSpec } from "./tool-kit.ts";

/** Every tool; the write tools are filtered out unless the server allows writes. */
const CORE_TOOLS: readonly ToolSpec[] = [
  {
    name: "issue_list",
    title: "List issues",
    description: "Issues of a target.",
    inputSchema: schema({
      target: str(),
      query: str(),
      limit: int(1, 1000),
      sort: { enum: ["date", "new", "freq", "user"] },
      ...WINDOW_PROPS,
      cursor: str(),
    }),
    run: (a) =>
      one(["issue", "list", ...opt(a, { ...LIST_FLAGS, sort: "--sort" }), ...windowArgs(a)], pos(a.target)),
  },
  {
    name: "issue_view",
    title: "View an issue",
    description: "One issue with tags and the latest event's in-app frames.",
    inputSchema: schema({ issue: str() }, ["issue"]),
    run: (a) => one(["issue", "view"], [String(a.issue)]),
  },
  {
    name: "issue_events",
    title: "List an issue's events",
    description: "Events of an issue, newest first.",
    inputSchema: schema(
      { issue: str(), query: str(), limit: int(1, 1000), ...WINDOW_PROPS, cursor: str(), full: bool },
      ["issue"],
    ),
    run: (a) =>
      one(
        ["issue", "events", ...opt(a, { ...LIST_FLAGS, full: "--full" }), ...windowArgs(a)],
        [String(a.issue)],
      ),
  },
  {
    name: "event_view",
    title: "View an event",
    description: "One event: exception, frames, tags, breadcrumbs, contexts.",
    inputSchema: schema({ event: str("id, org/project/id or URL"), target: str() }, ["event"]),
    run: (a) => one(["event", "view"], [String(a.event), ...pos(a.target)]),
  },
  {
    name: "issue_explain",
    title: "Explain an issue (AI)",
    description: "AI root-cause analysis (reuses a finished one).",
    inputSchema: schema({ issue: str(), force: bool }, ["issue"]),
    writesWhen: forced,
    run: (a) => one(["issue", "explain", ...opt(a, { force: "--force" })], [String(a.issue)]),
  },
  {
    name: "issue_plan",
    title: "Plan a fix (AI)",
    description: "AI fix plan for an issue: steps with file and code.",
    inputSchema: schema({ issue: str(), force: bool }, ["issue"]),
    writesWhen: forced,
    run: (a) => one(["issue", "plan", ...opt(a, { force: "--force" })], [String(a.issue)]),
  },
  {
    name: "trace_list",
    title: "List traces",
    description: "Recent transactions of a project.",
    inputSchema: schema({
      target: str(),
      query: str(),
      limit: int(1, 1000),
      sort: { enum: ["date", "duration"] },
      ...WINDOW_PROPS,
      cursor: str(),
    }),
    run: (a) =>
      one(["trace", "list", ...opt(a, { ...LIST_FLAGS, sort: "--sort" }), ...windowArgs(a)], pos(a.target)),
  },
  {
    name: "trace_view",
    title: "View a trace",
    description: "Span tree of a trace (id or 8-char prefix).",
    inputSchema: schema({ trace: str(), org: str() }, ["trace"]),
    run: (a) => one(["trace", "view"], [String(a.trace), ...pos(a.org)]),
  },
  {
    name: "org_list",
    title: "List organizations",
    description: "Organizations you can access.",
    inputSchema: schema({}),
    run: () => one(["org", "list"]),
  },
  {
    name: "project_list",
    title: "List projects",
    description: "Projects of an organization (or of every one).",
    inputSchema: schema({ org: str() }),
    run: (a) => one(["project", "list"], pos(a.org)),
  },
  {
    name: "resolve_url",
    title: "Open a service URL",
    description: "A service URL (issue, event, trace, project, org) as its resource.",
    inputSchema: schema({ url: str() }, ["url"]),
    run: (a) => urlInvocation(String(a.url)),
  },
  {
    name: "issue_update",
    title: "Update issues",
    description: "Change issues: status and/or assignee. dryRun previews.",
    writes: true,
    idempotent: true,
    inputSchema: schema(
      {
        issues: { type: "array", items: { type: "string" }, minItems: 1 },
        status: { enum: ["resolved", "unresolved", "archived"] },
        inRelease: str(),
        inNextRelease: bool,
        assignee: { type: ["string", "null"], description: "me, user, email, #team; null unassigns" },
        dryRun: bool,
      },
      ["issues"],
    ),
    run: updateInvocations,
  },
  {
    name: "issue_note",
    title: "Add a note",
    description: "Add a note (comment) to an issue.",
    writes: true,
    inputSchema: schema({ issue: str(), text: str() }, ["issue", "text"]),
    run: (a) => one(["issue", "note"], [String(a.issue), String(a.text)]),
  },
];

/** Every tool: the issue and trace tools, then the data tools (logs, spans, queries, tags, releases, status). */
export const TOOLS: readonly ToolSpec[] = [...CORE_TOOLS, ...DATA_TOOLS, ...INCIDENT_TOOLS];

/**
 * `issue_update`: the status verb and/or `issue assign`, each over every issue. Status values are
 * the CLI's verbs (`archived` is `issue archive`, Sentry's `ignored`).
 */
function updateInvocations(a: ToolArgs): Invocation[] {
  const issues = (a.issues as string[]).map(String);
  const dry = a.dryRun === true ? ["--dry-run"] : [];
  const out: Invocation[] = [];
  if (a.status === "resolved") {
    out.push({
      cmd: ["issue", "resolve", ...dry, ...opt(a, { inRelease: "--in", inNextRelease: "--in-next-release" })],
      args: issues,
    });
  } else if (a.status === "unresolved") {
    out.push({ cmd: ["issue", "unresolve", ...dry], args: issues });
  } else if (a.status === "archived") {
    out.push({ cmd: ["issue", "archive", ...dry], args: issues });
  }
  if (a.assignee === null) out.push({ cmd: ["issue", "assign", ...dry, "--none"], args: issues });
  else if (typeof a.assignee === "string")
    out.push({ cmd: ["issue", "assign", ...dry], args: [...issues, a.assignee] });
  if (out.length === 0) throw new ToolArgumentError("issue_update needs status or assignee");
  return out;
}

/** `resolve_url`: the view command of whatever the URL names. */
function urlInvocation(url: string): Invocation[] {
  const parts = parseServiceUrl(url);
  if (!parts) throw new ToolArgumentError(`not a service URL: ${url}`);
  if (parts.trace) return one(["trace", "view"], [parts.trace, ...pos(parts.org)]);
  if (parts.event) {
    const where = parts.org && parts.project ? [`${parts.org}/${parts.project}/${parts.event}`] : [url];
    return one(["event", "view"], where);
  }
  if (parts.issue) return one(["issue", "view"], [url]);
  if (parts.org && parts.project) return one(["project", "view"], [`${parts.org}/${parts.project}`]);
  if (parts.org) return one(["org", "view"], [parts.org]);
  throw new ToolArgumentError(`the URL names no issue, event, trace, project or organization: ${url}`);
}

/** A tool argument the schema accepts but the tool cannot use (a JSON-RPC invalid-params error). */
export class ToolArgumentError extends Error {}

/**
 * MCP tool annotations: reads are read-only, idempotent and safe to auto-approve; every tool talks
 * to the service (open world). issue_update overwrites a status or assignee (destructive,
 * idempotent); issue_note adds a comment each time.
 */
export function annotationsOf(t: ToolSpec): Record<string, unknown> {
  const writes = t.writes === true;
  return {
    readOnlyHint: !writes && !t.writesWhen,
    destructiveHint: writes && t.idempotent === true,
    idempotentHint: !writes || t.idempotent === true,
    openWorldHint: true,
  };
}

/** Arguments every list tool takes the same way, explained once in the server's instructions. */
const EXPLAINED_ONCE = new Set(["period", "start", "end", "environment"]);

/**
 * The schema a client is shown: the tool's own arguments. The output arguments every tool takes
 * (fields, maxChars, format), the window and environment (`period`, `start`/`end`, `environment`) and the bounds of integers (`limit` is
 * 1-1000, 1-100 for query and status) are explained once in the server's instructions instead of
 * in every schema, which keeps `tools/list` under 10 KB; extra properties are not forbidden in the
 * listing (the server still validates every argument against the whole schema).
 */
export function listedSchema(schema: ArgSchema): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([k]) => !(k in OUTPUT_PROPS) && !EXPLAINED_ONCE.has(k))
      .map(([k, p]) => {
        if ((p as { type?: unknown }).type !== "integer") return [k, p];
        const { minimum: _min, maximum: _max, ...rest } = p as Record<string, unknown>;
        return [k, rest];
      }),
  );
  return { type: "object", properties, ...(schema.required ? { required: schema.required } : {}) };
}

/** The tools a server offers. */
export function availableTools(allowWrites: boolean): readonly ToolSpec[] {
  return allowWrites ? TOOLS : TOOLS.filter((t) => !t.writes);
}
