/**
 * The one renderer of views. A list view: `--json` (and with it `--fields`, `--jq`, `--max-chars`
 * and `--format md`, which lib/output.ts shapes) gets the list contract's envelope (a `bare`
 * listing: its rows alone), whose markdown table is the view's piped cells; a terminal gets the
 * view's table, a pipe its TSV rows. A document view: `--json` gets its document, which carries the
 * markdown of its sections; the text is the same sections' lines.
 */
import type { TrackerContext } from "../../context.ts";
import { bareListDocument, listDocument, type PageLike } from "../list-page.ts";
import { writeJson, writeList } from "../output.ts";
import { oneLine } from "../format/one-line.ts";
import { paint } from "../style.ts";
import { attachMarkdown } from "./attach.ts";
import { type DocView, blockLines, isEmptyBlock } from "./doc.ts";
import { docMarkdown } from "./doc-markdown.ts";
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
  /**
   * `--json` is the rows alone, an array, not the envelope: the listings that were whole before the
   * list contract (`org list`, `project list`, `release deploys`) keep their documents.
   */
  bare?: boolean;
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

/** A `bare` listing's document: its rows, carrying the view's table for `--format md`. */
function bareViewDocument<T, O>(ctx: TrackerContext, run: ListRun<T, O>): unknown[] {
  return bareListDocument(run.items.map(run.view.document), () =>
    viewCells(run.view, run.items, run.options, { tty: false, now: ctx.now() }),
  );
}

/** Writes the listing: the JSON document when `json`, else the table (terminal) or rows (piped). */
export async function writeListView<T, O>(
  ctx: TrackerContext,
  json: boolean,
  run: ListRun<T, O>,
): Promise<void> {
  if (json) return writeJson(ctx, run.bare ? bareViewDocument(ctx, run) : listViewDocument(ctx, run));
  const lines = viewLines(run.view, run.items, run.options, {
    tty: ctx.isStdoutTTY,
    now: ctx.now(),
    width: ctx.isStdoutTTY ? ctx.terminalWidth : undefined,
    color: ctx.color,
  });
  await writeList(ctx, lines, run.title);
}

/** The document of a document view, carrying its sections for `--format md`. */
export function docViewDocument<D>(ctx: TrackerContext, view: DocView<D>, d: D): unknown {
  const doc = view.document(d);
  if (typeof doc === "object" && doc !== null) {
    const c = { tty: false, now: ctx.now() };
    attachMarkdown(doc, () => docMarkdown(view.sections(d, c), c));
  }
  return doc;
}

/**
 * The text of a document view: its sections, a blank line between, each heading above its block
 * (bold on a colour terminal), an empty block's `empty` line in its place.
 */
export function docViewLines<D>(ctx: TrackerContext, view: DocView<D>, d: D): string[] {
  const c = {
    tty: ctx.isStdoutTTY,
    now: ctx.now(),
    width: ctx.isStdoutTTY ? ctx.terminalWidth : undefined,
    color: ctx.color,
  };
  if (!c.tty && view.piped) return view.piped(d, c);
  const out: string[] = [];
  for (const s of view.sections(d, c)) {
    const empty = isEmptyBlock(s.block, c);
    if ((empty && s.empty === undefined) || s.markdownOnly) continue;
    if (out.length > 0 && !s.tight) out.push("");
    if (s.heading !== undefined)
      out.push(c.color ? paint(oneLine(s.heading), "1", "22") : oneLine(s.heading));
    if (empty) out.push(`  ${s.empty}`);
    else out.push(...blockLines(s.block, c));
  }
  return out;
}

/** Writes a document view: its JSON document when `json`, else its text. */
export async function writeDocView<D>(
  ctx: TrackerContext,
  json: boolean,
  view: DocView<D>,
  d: D,
): Promise<void> {
  if (json) return writeJson(ctx, docViewDocument(ctx, view, d));
  await writeList(ctx, docViewLines(ctx, view, d));
}
