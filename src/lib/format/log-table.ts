/**
 * Human renderings of logs: the `log list` view, one `--follow` line and the attribute list of
 * `log view`. Server text is put on one line (⏎ for breaks) and, on a terminal, cut to the width,
 * so a 1 MB message prints as one short row.
 */
import type { LogItem } from "../log/items.ts";
import { severityMarker } from "../log/items.ts";
import { headUnits } from "../text-head.ts";
import type { CellContext, ListView } from "../view/list.ts";
import { viewLines } from "../view/list.ts";
import { oneLine } from "./one-line.ts";
import { displayWidth, padEnd, truncate } from "./table.ts";
import { isoSeconds } from "./time.ts";

/** Characters of the trace id shown on a terminal. */
export const SHORT_LOG_TRACE_LENGTH = 8;
/** Widest key column of `log view` (longer keys are cut). */
export const MAX_KEY_WIDTH = 40;

const TIME_WIDTH = 19;
const SEVERITY_WIDTH = "SEVERITY".length;

/** Options of the log formatters. */
export interface LogFormatOptions {
  /** Terminal width when stdout is a TTY; undefined when piped (full values, tab-separated). */
  width?: number;
  /** Leave out the TRACE column (the logs of one trace). */
  noTrace?: boolean;
}

/** A time for a terminal: `2026-01-15 11:59:58` (UTC, seconds). */
export function terminalTime(ts: string): string {
  const iso = isoSeconds(ts);
  return iso.length === 20 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso;
}

/** Message text on one line; on a terminal only as much as could ever be shown is kept. */
export function messageText(message: string, width: number | undefined): string {
  const cut = width === undefined ? message : headUnits(message, Math.max(64, width * 4));
  return oneLine(cut).replace(/\t/g, " ");
}

/** The time of a log: UTC with a space on a terminal (it reads like a log file), RFC 3339 piped. */
function timeCell(i: LogItem, c: CellContext): string {
  return c.tty ? terminalTime(i.timestamp) : isoSeconds(i.timestamp);
}

/** The log's trace: its first 8 characters on a terminal, whole piped, `-` without one. */
function traceCell(i: LogItem, c: CellContext): string {
  if (!i.traceId) return "-";
  return c.tty ? i.traceId.slice(0, SHORT_LOG_TRACE_LENGTH) : i.traceId;
}

/**
 * `log list`: TIME, SEVERITY, MESSAGE, TRACE, ID. On a terminal: UTC times, the first 8
 * characters of the trace id, the message cut to fit; piped (and markdown): RFC 3339 times, full
 * message and trace id. The log id is whole in both (it is what `tracker log view` takes).
 */
export const LOG_LIST_VIEW: ListView<LogItem> = {
  name: "log list",
  id: "id",
  document: (i) => i,
  columns: () => [
    { header: "time", cell: timeCell },
    { header: "severity", cell: (i) => severityMarker(i.severity, i.severityNumber) },
    { header: "message", flex: true, cell: (i, c) => messageText(i.message, c.tty ? c.width : undefined) },
    { header: "trace", cell: traceCell },
    { header: "id", cell: (i) => i.id },
  ],
};

/** The `log list` view's lines for these logs: a table on a terminal of `width`, else TSV rows. */
export function formatLogTable(items: readonly LogItem[], opts: LogFormatOptions = {}): string[] {
  return viewLines(LOG_LIST_VIEW, items, undefined, {
    tty: opts.width !== undefined,
    now: 0,
    width: opts.width,
  });
}

/** The header of `--follow` on a terminal (its rows come one by one, see formatLogLine). */
export function formatLogHeader(width: number): string {
  return formatLogLine(null, { width });
}

/**
 * One row of `--follow` (and of a trace's logs under their span): piped, the `log list` view's
 * row; on a terminal, the view's cells in fixed columns so rows printed minutes apart line up, the
 * message filling what is left.
 */
export function formatLogLine(item: LogItem | null, opts: LogFormatOptions = {}): string {
  if (opts.width === undefined) return item ? (formatLogTable([item])[0] ?? "") : "";
  const traceWidth = opts.noTrace ? -2 : SHORT_LOG_TRACE_LENGTH;
  const messageWidth = Math.max(10, opts.width - TIME_WIDTH - SEVERITY_WIDTH - traceWidth - 6);
  const c = { tty: true, now: 0, width: opts.width };
  const [time, severity, message, trace] = LOG_LIST_VIEW.columns(undefined, c);
  const shown = [time, severity, message, ...(opts.noTrace ? [] : [trace])];
  const cells = shown.map((col, i) => {
    if (!col) return "";
    if (!item) return col.header.toUpperCase();
    const text = col.cell(item, c);
    return i === 2 ? truncate(text, messageWidth) : text;
  });
  const widths = [TIME_WIDTH, SEVERITY_WIDTH, messageWidth];
  return cells
    .map((text, i) => (i < widths.length ? padEnd(text, widths[i] as number) : text))
    .join("  ")
    .trimEnd();
}

/** A value of one attribute as one line of text (`-` when absent). */
export function attributeText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  return oneLine(typeof value === "string" ? value : JSON.stringify(value));
}

/**
 * Every attribute of one log as an aligned `key  value` list, in the given order. On a terminal
 * keys longer than MAX_KEY_WIDTH and values wider than the line are cut with `…`.
 */
export function formatLogAttributes(
  attributes: readonly (readonly [string, unknown])[],
  opts: LogFormatOptions = {},
): string[] {
  const keys = attributes.map(([k]) => oneLine(k));
  const keyWidth = Math.min(MAX_KEY_WIDTH, Math.max(0, ...keys.map(displayWidth)));
  return attributes.map(([, value], i) => {
    const key = keys[i] as string;
    if (opts.width === undefined) return `${padEnd(key, keyWidth)}  ${attributeText(value)}`;
    const text = attributeText(typeof value === "string" ? headUnits(value, opts.width * 4) : value);
    return `${padEnd(truncate(key, keyWidth), keyWidth)}  ${truncate(text, Math.max(10, opts.width - keyWidth - 2))}`;
  });
}
