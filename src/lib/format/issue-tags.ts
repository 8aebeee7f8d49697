/** Renderings of `issue tags`: every key with its top values' shares, or one key's values. */
import type { IssueTag, TagValue } from "../api/issue-tags.ts";
import { oneLine } from "./one-line.ts";
import { formatTable } from "./table.ts";
import { listTime } from "./time.ts";

/** A share as a whole percent (`82%`; `<1%` for a small non-zero share). */
export function sharePercent(count: number | null | undefined, total: number | null | undefined): string {
  if (!count || !total || total <= 0) return "0%";
  const p = (count / total) * 100;
  return p > 0 && p < 1 ? "<1%" : `${Math.round(p)}%`;
}

function valueText(v: TagValue): string {
  return oneLine(v.value ?? "(empty)");
}

/**
 * One line per key: `environment  production 82% · staging 18%`. Piped: key, then each value and
 * its share as further tab-separated cells (`environment\tproduction\t82%\tstaging\t18%`).
 */
export function formatTagKeys(tags: readonly IssueTag[], width?: number): string[] {
  if (width === undefined) {
    return formatTable(
      [],
      tags.map((t) => [
        oneLine(t.key),
        ...(t.topValues ?? []).flatMap((v) => [valueText(v), sharePercent(v.count, t.totalValues)]),
      ]),
    );
  }
  return formatTable(
    [{ header: "key" }, { header: "top values", flex: true }],
    tags.map((t) => [
      oneLine(t.key),
      (t.topValues ?? []).map((v) => `${valueText(v)} ${sharePercent(v.count, t.totalValues)}`).join(" · ") ||
        "-",
    ]),
    width,
  );
}

/** One key's values: VALUE, COUNT, LAST SEEN (piped: value, count, RFC 3339 time). */
export function formatTagValues(values: readonly TagValue[], nowMs: number, width?: number): string[] {
  const tty = width !== undefined;
  return formatTable(
    [{ header: "value", flex: true }, { header: "count", align: "right" }, { header: "last seen" }],
    values.map((v) => [
      valueText(v),
      v.count == null ? "" : tty ? v.count.toLocaleString("en-US") : String(v.count),
      listTime(v.lastSeen, nowMs, tty),
    ]),
    width,
  );
}
