/** Log rows as tracker shows them: the JSON item, the severity marker, precise ordering. */
import type { LogRow } from "../api/logs.ts";

/** One log of `log list --json` (and each JSON line of `--follow`). */
export interface LogItem {
  id: string;
  /** ISO 8601 with offset, whole seconds (as the service sends it). */
  timestamp: string;
  /** Nanoseconds since the epoch as a decimal string (exceeds a double's precision). */
  timestampPrecise: string | null;
  severity: string | null;
  severityNumber: number | null;
  message: string;
  traceId: string | null;
  spanId: string | null;
  project: string | null;
  projectId: string | null;
}

/** The log's time in nanoseconds: `timestamp_precise`, else `timestamp` (whole seconds). */
export function logNs(row: LogRow): bigint {
  const p = row.timestamp_precise;
  if (typeof p === "string" && /^-?\d+$/.test(p)) return BigInt(p);
  if (typeof p === "number" && Number.isFinite(p)) return BigInt(Math.round(p));
  const ms = Date.parse(row.timestamp);
  return Number.isNaN(ms) ? 0n : BigInt(ms) * 1_000_000n;
}

/** Maps an API row to the JSON item. */
export function toLogItem(row: LogRow): LogItem {
  const p = row.timestamp_precise;
  const projectId = row["project.id"];
  return {
    id: row["sentry.item_id"].toLowerCase(),
    timestamp: row.timestamp,
    timestampPrecise: p === null || p === undefined ? null : String(p),
    severity: row.severity ?? null,
    severityNumber: row.severity_number ?? null,
    message: row.message ?? "",
    traceId: row.trace ? row.trace.toLowerCase() : null,
    spanId: row.span_id ? row.span_id.toLowerCase() : null,
    project: row.project ?? null,
    projectId: projectId === null || projectId === undefined ? null : String(projectId),
  };
}

/** Rows oldest first, by nanoseconds, then id (a stable order for equal times). */
export function sortLogsAscending(rows: readonly LogRow[]): LogRow[] {
  return rows
    .map((row) => ({ row, ns: logNs(row) }))
    .sort((a, b) =>
      a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : a.row["sentry.item_id"].localeCompare(b.row["sentry.item_id"]),
    )
    .map((x) => x.row);
}

const MARKERS: [number, string][] = [
  [21, "FATAL"],
  [17, "ERROR"],
  [13, "WARN"],
  [9, "INFO"],
  [5, "DEBUG"],
  [1, "TRACE"],
];
const NAMES: Record<string, string> = {
  fatal: "FATAL",
  critical: "FATAL",
  error: "ERROR",
  warn: "WARN",
  warning: "WARN",
  info: "INFO",
  debug: "DEBUG",
  trace: "TRACE",
};

/** A severity as text that survives NO_COLOR: `ERROR`, `WARN`, `INFO`… (OTel numbers first). */
export function severityMarker(severity: string | null | undefined, n: number | null | undefined): string {
  if (typeof n === "number" && n >= 1 && n <= 24) {
    for (const [min, text] of MARKERS) if (n >= min) return text;
  }
  const name = severity?.trim().toLowerCase() ?? "";
  if (name === "") return "-";
  return NAMES[name] ?? name.toUpperCase().slice(0, 8);
}

/**
 * The most recent ids seen, at most `capacity` of them (oldest forgotten first): enough to drop
 * repeats of logs at the same timestamp across polls without growing for ever.
 */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
  }
  get size(): number {
    return this.ids.size;
  }
}
