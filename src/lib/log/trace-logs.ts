/**
 * The logs of one trace (`trace logs`, `trace view --logs`): which organization a trace id (or a
 * prefix from `trace list`) lives in, and its logs in one request across all projects.
 */
import type { TrackerContext } from "../../context.ts";
import { listLogs } from "../api/logs.ts";
import { findRecentTraces } from "../db/recent-traces.ts";
import { ResolutionError } from "../errors.ts";
import type { Page } from "../http/paginate.ts";
import { resolveOrg } from "../resolve/target.ts";
import { RECENT_TRACES_TTL_DAYS } from "../trace/windows.ts";
import { parseTraceRef } from "../trace/trace-id.ts";
import { type LogItem, sortLogsAscending, toLogItem } from "./items.ts";
import { LOG_LOOKUP_PERIOD } from "./options.ts";

/**
 * The trace id and its organization: the org given (`<org>`, `<org>/` or `<org>/<project>`),
 * else the one `trace list` saw the trace in, else TRACKER_ORG, defaults or a DSN. A prefix is
 * looked up among recently listed traces.
 */
export async function resolveTraceOrg(
  ctx: TrackerContext,
  rawId: string,
  target: string | undefined,
  opts: { command: string; fresh: boolean },
): Promise<{ traceId: string; org: string }> {
  const ref = parseTraceRef(rawId);
  const explicit = target?.trim()
    ? (await resolveOrg(ctx, target.trim().split("/")[0], opts)).org
    : undefined;
  if (ref.kind === "prefix") {
    const matches = findRecentTraces(ctx, ref.prefix, explicit);
    const where = explicit ? ` in ${explicit}` : "";
    if (matches.length !== 1) {
      throw new ResolutionError(
        `Trace '${ref.prefix}'`,
        matches.length === 0
          ? `matches no trace listed recently${where}`
          : `is ambiguous: ${matches.length} recently listed traces${where} start with it`,
        `A prefix is looked up among the traces shown by \`tracker trace list\` in the last ${RECENT_TRACES_TTL_DAYS} days; pass the full 32-character trace ID.`,
        matches.map((m) => `${opts.command} ${m.trace_id} ${m.org}`),
      );
    }
    const only = matches[0] as (typeof matches)[number];
    return { traceId: only.trace_id, org: only.org };
  }
  if (explicit) return { traceId: ref.id, org: explicit };
  const orgs = [...new Set(findRecentTraces(ctx, ref.id).map((m) => m.org))];
  if (orgs.length === 1) return { traceId: ref.id, org: orgs[0] as string };
  const resolved = await resolveOrg(ctx, undefined, { ...opts, command: `${opts.command} ${ref.id}` });
  return { traceId: ref.id, org: resolved.org };
}

/** A trace's logs, oldest first (one request up to 100 logs; `project=-1`: a trace spans projects). */
export async function fetchTraceLogs(
  ctx: TrackerContext,
  org: string,
  traceId: string,
  limit: number,
): Promise<Page<LogItem>> {
  const page = await listLogs(ctx, {
    org,
    projectIds: ["-1"],
    query: `trace:${traceId}`,
    sort: "timestamp",
    period: LOG_LOOKUP_PERIOD,
    limit,
  });
  return { data: sortLogsAscending(page.data).map(toLogItem), nextCursor: page.nextCursor };
}
