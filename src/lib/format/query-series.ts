/**
 * The `tracker query --interval` view: one line per series (label, sparkline, min, max, total),
 * the total only where the buckets add up (counts and sums, not p95, avg or epm).
 */
import type { TimeseriesResponse, TimeSeries } from "../api/explore.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import type { CellContext, ListView } from "../view/list.ts";
import { withUnit } from "./query-table.ts";
import { fitPoints, SPARK_MAX_WIDTH, seriesLabel, seriesStats, sparkline } from "./sparkline.ts";

/** A number of a series: with its unit on a terminal, plain (six decimals at most) otherwise. */
function seriesNumber(x: number, s: TimeSeries, c: CellContext): string {
  return c.tty ? withUnit(x, s.meta?.valueUnit) : String(Number(x.toFixed(6)));
}

/** The bars: on a terminal a long series is averaged down to fit; otherwise every bucket. */
function bars(s: TimeSeries, c: CellContext): string {
  const points = s.values.map((p) => p.value);
  if (!c.tty) return sparkline(points);
  const width = Math.max(10, Math.min(SPARK_MAX_WIDTH, (c.width ?? 80) - 50));
  return sparkline(fitPoints(points, width));
}

/** The series of one `--interval` answer. */
export const QUERY_SERIES_VIEW: ListView<TimeSeries> = {
  name: "query series",
  partOf: "query --interval",
  id: "yAxis",
  document: (s) => s,
  columns: () => [
    { header: "series", flex: true, cell: seriesLabel },
    { header: "values", cell: bars },
    { header: "min", align: "right", cell: (s, c) => seriesNumber(seriesStats(s).min, s, c) },
    { header: "max", align: "right", cell: (s, c) => seriesNumber(seriesStats(s).max, s, c) },
    {
      header: "total",
      align: "right",
      cell: (s, c) => {
        const { total } = seriesStats(s);
        return total === null ? "-" : seriesNumber(total, s, c);
      },
    },
  ],
};

/** `query --interval`: the service's answer as `--json` gives it, its series as one table. */
export const QUERY_INTERVAL_VIEW: DocView<TimeseriesResponse> = {
  name: "query --interval",
  id: "yAxis",
  document: (a) => a,
  sections: (a) => [
    {
      block: tableBlock(QUERY_SERIES_VIEW, a.timeSeries, undefined),
      priority: (i) => (i < 5 ? 1 : 2 + i),
      label: "series",
    },
  ],
};
