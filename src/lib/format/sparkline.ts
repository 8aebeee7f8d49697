/** One-line sparklines of time series (`tracker query --interval`). */
import type { TimeSeries } from "../api/explore.ts";
import { oneLine } from "./one-line.ts";

/** The eight bar heights, lowest first. */
export const SPARK_BARS = "▁▂▃▄▅▆▇█";

/** Scales values to bars between their min and max (all equal → lowest bar; null → space). */
export function sparkline(values: readonly (number | null)[]): string {
  const nums = values.filter((x): x is number => x !== null && Number.isFinite(x));
  if (nums.length === 0) return " ".repeat(values.length);
  const lo = Math.min(...nums);
  const span = Math.max(...nums) - lo;
  return values
    .map((x) => {
      if (x === null || !Number.isFinite(x)) return " ";
      const i = span === 0 ? 0 : Math.round(((x - lo) / span) * (SPARK_BARS.length - 1));
      return SPARK_BARS[i] as string;
    })
    .join("");
}

/** Shrinks a series to at most `width` points by averaging neighbours (a terminal is finite). */
export function fitPoints(values: readonly (number | null)[], width: number): (number | null)[] {
  if (values.length <= width || width <= 0) return [...values];
  const out: (number | null)[] = [];
  for (let i = 0; i < width; i++) {
    const part = values
      .slice(Math.floor((i * values.length) / width), Math.floor(((i + 1) * values.length) / width))
      .filter((x): x is number => x !== null);
    out.push(part.length === 0 ? null : part.reduce((a, b) => a + b, 0) / part.length);
  }
  return out;
}

/**
 * Whether the buckets of an aggregate add up to the whole window: counts and sums do; averages,
 * percentiles, rates (epm), unique counts, min and max do not (their sum means nothing).
 */
export function isAdditive(yAxis: string): boolean {
  return /^(count|sum|count_if|failure_count)\(/.test(yAxis.trim());
}

/** Summary of a series: min, max and, for an additive aggregate only, the total of its values. */
export function seriesStats(s: TimeSeries): { min: number; max: number; total: number | null } {
  const nums = s.values.map((p) => p.value).filter((x): x is number => x !== null);
  const additive = isAdditive(s.yAxis);
  if (nums.length === 0) return { min: 0, max: 0, total: additive ? 0 : null };
  return {
    min: Math.min(...nums),
    max: Math.max(...nums),
    total: additive ? nums.reduce((a, b) => a + b, 0) : null,
  };
}

/** A series' label: the aggregate, then its group (`count() transaction=GET /api`). */
export function seriesLabel(s: TimeSeries): string {
  const group = (s.groupBy ?? []).map((g) => `${g.key}=${g.value === null ? "" : String(g.value)}`);
  const other = s.meta?.isOther ? ["(other)"] : [];
  return oneLine([s.yAxis, ...group, ...other].join(" "));
}

/** Most bars drawn on a terminal line. */
export const SPARK_MAX_WIDTH = 60;
