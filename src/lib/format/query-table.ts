/** The human table of `tracker query`: one column per requested field, units from `meta`. */
import type { QueryMeta, QueryRow } from "../api/explore.ts";
import { isAggregate } from "../api/explore.ts";
import { oneLine } from "./one-line.ts";
import { formatTable } from "./table.ts";
import { listTime } from "./time.ts";

/** Options of formatQueryTable. */
export interface QueryTableOptions {
  /** Terminal width when stdout is a TTY; undefined when piped. */
  width?: number;
  nowMs: number;
}

const NUMERIC_TYPES = new Set(["integer", "number", "duration", "rate", "percentage", "size"]);

/** A number for people: at most two decimals, thousands grouped (`1,234`, `0.42`). */
export function humanNumber(n: number): string {
  const abs = Math.abs(n);
  const digits = abs >= 100 || Number.isInteger(n) ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** A number with its unit as the service names it (`245 ms`, `1.25 s`, `12/min`). */
export function withUnit(n: number, unit: string | null | undefined): string {
  switch (unit) {
    case "millisecond":
      return Math.abs(n) >= 10_000 ? `${humanNumber(n / 1000)} s` : `${humanNumber(n)} ms`;
    case "second":
      return `${humanNumber(n)} s`;
    case "microsecond":
      return `${humanNumber(n)} µs`;
    case "nanosecond":
      return `${humanNumber(n)} ns`;
    case "1/minute":
      return `${humanNumber(n)}/min`;
    case "1/second":
      return `${humanNumber(n)}/s`;
    case "byte":
      return `${humanNumber(n)} B`;
    case "percent":
    case "percentage":
      return `${humanNumber(n)}%`;
    case null:
    case undefined:
    case "":
      return humanNumber(n);
    default:
      return `${humanNumber(n)} ${unit}`;
  }
}

/** One cell: numbers with units on a terminal and plain when piped, dates like every list. */
export function formatQueryCell(
  value: unknown,
  type: string | undefined,
  unit: string | null | undefined,
  opts: QueryTableOptions,
): string {
  const tty = opts.width !== undefined;
  if (value === null || value === undefined) return tty ? "-" : "";
  if (typeof value === "number") return tty ? withUnit(value, unit) : String(value);
  if (type === "date" && typeof value === "string") return listTime(value, opts.nowMs, tty);
  if (typeof value === "string") return oneLine(value);
  return oneLine(JSON.stringify(value));
}

/** Rows as a table, columns in the requested order; aggregates and numbers right-aligned. */
export function formatQueryTable(
  rows: readonly QueryRow[],
  fields: readonly string[],
  meta: QueryMeta,
  opts: QueryTableOptions,
): string[] {
  const types = meta.fields ?? {};
  const units = meta.units ?? {};
  const firstText = fields.findIndex((f) => !isAggregate(f) && !NUMERIC_TYPES.has(types[f] ?? "string"));
  return formatTable(
    fields.map((f, i) => ({
      header: f,
      align: isAggregate(f) || NUMERIC_TYPES.has(types[f] ?? "") ? ("right" as const) : ("left" as const),
      flex: i === firstText,
    })),
    rows.map((r) => fields.map((f) => formatQueryCell(r[f], types[f], units[f], opts))),
    opts.width,
  );
}
