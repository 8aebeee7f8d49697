import type { TrackerContext } from "../../context.ts";
import { LOG_VIEW_FIELDS, listLogs } from "../../lib/api/logs.ts";
import { ApiError, ResolutionError } from "../../lib/errors.ts";
import { getTraceItem } from "../../lib/api/trace-items.ts";
import { LOG_VIEW } from "../../lib/format/log-view.ts";
import { LOG_LOOKUP_PERIOD, parseLogId } from "../../lib/log/options.ts";
import { resolveLogTarget } from "../../lib/log/target.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { LogViewFlags } from "./index.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

const COMMAND = "tracker log view";

/**
 * Every attribute of the log by name, from its trace item (one more request, after the lookup
 * that gave its trace and project); undefined when the log has no trace or the server has no such
 * endpoint (a 404 or 400 from a self-hosted or compatible server), so the fixed fields still show.
 */
async function allAttributes(
  ctx: TrackerContext,
  org: string,
  row: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const trace = typeof row.trace === "string" ? row.trace : undefined;
  const project = typeof row.project === "string" ? row.project : undefined;
  const itemId = row["sentry.item_id"];
  if (!trace || !project || typeof itemId !== "string") return undefined;
  try {
    const item = await getTraceItem(ctx, { org, project, itemId, traceId: trace, itemType: "logs" });
    return Object.fromEntries(item.attributes.map((a) => [a.name, a.value ?? null]));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      ctx.log.debug(`The log's trace item was not available (${err.status}); showing the queried fields`);
      return undefined;
    }
    throw err;
  }
}

/** `tracker log view`: one log by id (`sentry.item_id:<id>`), every attribute. */
export default async function logView(
  this: TrackerContext,
  flags: LogViewFlags,
  rawId: string,
  target?: string,
): Promise<void> {
  const id = parseLogId(rawId);
  const t = await resolveLogTarget(this, target, { command: `${COMMAND} ${id}`, fresh: flags.fresh });
  const page = await listLogs(this, {
    org: t.org,
    projectIds: t.projectIds,
    query: `sentry.item_id:${id}`,
    sort: "-timestamp",
    period: LOG_LOOKUP_PERIOD,
    fields: LOG_VIEW_FIELDS,
    limit: 1,
  });
  const row = page.data[0];
  if (!row) {
    throw new ResolutionError(
      `Log ${id}`,
      `was not found in ${t.label}`,
      `It does not exist there, belongs to another project, or is older than ${LOG_LOOKUP_PERIOD}.`,
      [
        `${COMMAND} ${quoteWord(id)} ${quoteWord(`${t.org}/`)}`,
        `tracker log list ${quoteWord(t.label.includes(",") ? `${t.org}/` : t.label)}`,
      ],
    );
  }
  // The query answers a fixed list of fields; the item itself has every attribute (custom ones too).
  const more = await allAttributes(this, t.org, row);
  await writeDocView(this, flags.json, LOG_VIEW, { row, more });
}
