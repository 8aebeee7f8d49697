/**
 * The one renderer of list views: `--json` (and with it `--fields`, `--jq`, `--max-chars` and
 * `--format md`, which lib/output.ts shapes) gets the list contract's envelope, whose markdown table
 * is the view's piped cells; a terminal gets the view's table, a pipe its TSV rows.
 */
import type { TrackerContext } from "../../context.ts";
import { listDocument, type PageLike } from "../list-page.ts";
import { writeJson, writeList } from "../output.ts";
import { type ListView, viewCells, viewLines } from "./list.ts";

/** One listing to show: the rows (as the view takes them) and the page they came from. */
export interface ListRun<T, O> {
  view: ListView<T, O>;
  items: readonly T[];
  options: O;
  /** The page's cursor and how to resume at a row (lib/http/paginate.ts `Page`). */
  page?: Omit<PageLike<unknown>, "data">;
  /** Members of the envelope before `data` (org, traceId…). */
  extra?: Record<string, unknown>;
  hasMore?: boolean;
  /** Re-saves the `-c last` position when a size bound shows fewer rows than the page held. */
  save?: (cursor: string | undefined) => void;
  /** Heads the table on a terminal (framing like the tips when piped). */
  title?: string;
}

/** The listing as one JSON document (the list contract), carrying its view for `--format md`. */
export function listViewDocument<T, O>(ctx: TrackerContext, run: ListRun<T, O>): Record<string, unknown> {
  return listDocument(
    { data: run.items.map(run.view.document), ...run.page },
    {
      ...(run.extra ? { extra: run.extra } : {}),
      ...(run.hasMore !== undefined ? { hasMore: run.hasMore } : {}),
      ...(run.save ? { save: run.save } : {}),
      table: () => viewCells(run.view, run.items, run.options, { tty: false, now: ctx.now() }),
    },
  );
}

/** Writes the listing: the JSON document when `json`, else the table (terminal) or rows (piped). */
export async function writeListView<T, O>(
  ctx: TrackerContext,
  json: boolean,
  run: ListRun<T, O>,
): Promise<void> {
  if (json) return writeJson(ctx, listViewDocument(ctx, run));
  const lines = viewLines(run.view, run.items, run.options, {
    tty: ctx.isStdoutTTY,
    now: ctx.now(),
    width: ctx.isStdoutTTY ? ctx.terminalWidth : undefined,
    color: ctx.color,
  });
  await writeList(ctx, lines, run.title);
}
