import type { TrackerContext } from "../../context.ts";
import { LOG_VIEW_FIELDS, listLogs } from "../../lib/api/logs.ts";
import { ResolutionError } from "../../lib/errors.ts";
import { formatLogAttributes } from "../../lib/format/log-table.ts";
import { LOG_LOOKUP_PERIOD, parseLogId } from "../../lib/logs/options.ts";
import { resolveLogTarget } from "../../lib/logs/target.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import type { LogViewFlags } from "./index.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

const COMMAND = "tracker log view";

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
  if (flags.json) return writeJson(this, row);
  const known = new Set<string>(LOG_VIEW_FIELDS);
  const attributes: [string, unknown][] = [
    ...LOG_VIEW_FIELDS.filter((k) => k in row).map((k): [string, unknown] => [k, row[k]]),
    ...Object.keys(row)
      .filter((k) => !known.has(k))
      .sort()
      .map((k): [string, unknown] => [k, row[k]]),
  ];
  await writeList(
    this,
    formatLogAttributes(attributes, { width: this.isStdoutTTY ? this.terminalWidth : undefined }),
  );
}
