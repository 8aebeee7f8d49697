/**
 * Human renderings of logs: the `log list` table, one `--follow` line, the attribute list of
 * `log view` and the per-span groups of `trace logs`. Server text is put on one line (⏎ for
 * breaks) and, on a terminal, cut to the width, so a 1 MB message prints as one short row.
 */
import type { LogItem } from "../log/items.ts";
import { severityMarker } from "../log/items.ts";
import { headUnits } from "../text-head.ts";
import { oneLine } from "./one-line.ts";
import { displayWidth, formatTable, padEnd, truncate } from "./table.ts";
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
function terminalTime(ts: string): string {
  const iso = isoSeconds(ts);
  return iso.length === 20 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso;
}

/** Message text on one line; on a terminal only as much as could ever be shown is kept. */
function messageText(message: string, width: number | undefined): string {
  const cut = width === undefined ? message : headUnits(message, Math.max(64, width * 4));
  return oneLine(cut).replace(/\t/g, " ");
}

/**
 * Logs as a table: TIME, SEVERITY, MESSAGE, TRACE, ID. On a terminal: UTC times, the first 8
 * characters of the trace id, the message cut to fit; piped: RFC 3339 times, full message and
 * trace id. The log id is whole in both (it is what `tracker log view` takes).
 */
export function formatLogTable(items: readonly LogItem[], opts: LogFormatOptions = {}): string[] {
  const tty = opts.width !== undefined;
  const rows = items.map((i) => [
    tty ? terminalTime(i.timestamp) : isoSeconds(i.timestamp),
    severityMarker(i.severity, i.severityNumber),
    messageText(i.message, opts.width),
    i.traceId ? (tty ? i.traceId.slice(0, SHORT_LOG_TRACE_LENGTH) : i.traceId) : "-",
    i.id,
  ]);
  return formatTable(
    [
      { header: "time" },
      { header: "severity" },
      { header: "message", flex: true },
      { header: "trace" },
      { header: "id" },
    ],
    rows,
    opts.width,
  );
}

/** The header of `--follow` on a terminal (its rows come one by one, see formatLogLine). */
export function formatLogHeader(width: number): string {
  return formatLogLine(null, { width });
}

/**
 * One row of `--follow`: piped, the same tab-separated row as `log list`; on a terminal, fixed
 * columns so rows printed minutes apart line up, the message filling what is left.
 */
export function formatLogLine(item: LogItem | null, opts: LogFormatOptions = {}): string {
  if (opts.width === undefined) return item ? (formatLogTable([item])[0] ?? "") : "";
  const traceWidth = opts.noTrace ? -2 : SHORT_LOG_TRACE_LENGTH;
  const messageWidth = Math.max(10, opts.width - TIME_WIDTH - SEVERITY_WIDTH - traceWidth - 6);
  const cells = item
    ? [
        terminalTime(item.timestamp),
        severityMarker(item.severity, item.severityNumber),
        truncate(messageText(item.message, opts.width), messageWidth),
        item.traceId ? item.traceId.slice(0, SHORT_LOG_TRACE_LENGTH) : "-",
      ]
    : ["TIME", "SEVERITY", "MESSAGE", "TRACE"];
  const widths = [TIME_WIDTH, SEVERITY_WIDTH, messageWidth];
  return (opts.noTrace ? cells.slice(0, 3) : cells)
    .map((c, i) => (i < widths.length ? padEnd(c, widths[i] as number) : c))
    .join("  ")
    .trimEnd();
}

/** A value of one attribute as one line of text (`-` when absent). */
function attributeText(value: unknown): string {
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

/**
 * Logs of one trace, grouped under their spans in time order (a span's group where its first log
 * falls; logs without a span in a group of their own). `spanLabel` names a known span. Piped:
 * one tab-separated row per log (time, severity, span id, message, log id), in time order.
 */
export function formatTraceLogs(
  items: readonly LogItem[],
  spanLabel: (spanId: string) => string | undefined,
  opts: LogFormatOptions = {},
): string[] {
  if (opts.width === undefined) {
    return formatTable(
      [
        { header: "time" },
        { header: "severity" },
        { header: "span" },
        { header: "message" },
        { header: "id" },
      ],
      items.map((i) => [
        isoSeconds(i.timestamp),
        severityMarker(i.severity, i.severityNumber),
        i.spanId ?? "-",
        oneLine(i.message),
        i.id,
      ]),
    );
  }
  const groups = new Map<string, LogItem[]>();
  for (const item of items) {
    const key = item.spanId ?? "";
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  const out: string[] = [];
  const indent = Math.max(20, opts.width - 2);
  for (const [spanId, logs] of groups) {
    const label = spanId ? spanLabel(spanId) : undefined;
    const head = spanId ? `span ${spanId}${label ? `  ${oneLine(label)}` : ""}` : "no span";
    out.push(truncate(head, opts.width));
    for (const item of logs) out.push(`  ${formatLogLine(item, { width: indent, noTrace: true })}`);
  }
  return out;
}
