/** The `tracker query` view: one column per requested field, units from `meta`. */
import type { QueryMeta, QueryRow } from "../api/explore.ts";
import { isAggregate } from "../api/explore.ts";
import type { CellContext, ListView } from "../view/list.ts";
import { oneLine } from "./one-line.ts";
import { listTime } from "./time.ts";

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
  c: CellContext,
): string {
  if (value === null || value === undefined) return c.tty ? "-" : "";
  if (typeof value === "number") return c.tty ? withUnit(value, unit) : String(value);
  if (type === "date" && typeof value === "string") return listTime(value, c.now, c.tty);
  if (typeof value === "string") return oneLine(value);
  return oneLine(JSON.stringify(value));
}

/** The columns a query asked for and what the service said of them (types and units). */
export interface QueryColumns {
  fields: readonly string[];
  meta: QueryMeta;
}

/**
 * `tracker query`: one column per requested field, in the requested order; aggregates and numbers
 * right-aligned, the first text column absorbing the squeeze. A row's document is the service's.
 */
export const QUERY_VIEW: ListView<QueryRow, QueryColumns> = {
  name: "query",
  // No field names a row: a query's rows are whatever it asked for, often aggregates.
  id: "",
  document: (r) => r,
  columns: ({ fields, meta }) => {
    const types = meta.fields ?? {};
    const units = meta.units ?? {};
    const firstText = fields.findIndex((f) => !isAggregate(f) && !NUMERIC_TYPES.has(types[f] ?? "string"));
    return fields.map((f, i) => ({
      header: f,
      align: isAggregate(f) || NUMERIC_TYPES.has(types[f] ?? "") ? ("right" as const) : ("left" as const),
      flex: i === firstText,
      cell: (r: QueryRow, c: CellContext) => formatQueryCell(r[f], types[f], units[f], c),
    }));
  },
};
