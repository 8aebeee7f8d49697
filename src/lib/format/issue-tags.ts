/** The views of `issue tags`: every key with its top values' shares, or one key's values. */
import type { IssueTag, TagValue } from "../api/issue-tags.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";
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

/** The keys as a table: KEY, TOP VALUES (`production 82% · staging 18%`). */
export const ISSUE_TAG_KEYS_TABLE: ListView<IssueTag> = {
  name: "issue tags keys",
  partOf: "issue tags",
  id: "key",
  document: (t) => t,
  columns: () => [
    { header: "key", cell: (t) => oneLine(t.key) },
    {
      header: "top values",
      flex: true,
      cell: (t) =>
        (t.topValues ?? [])
          .map((v) => `${valueText(v)} ${sharePercent(v.count, t.totalValues)}`)
          .join(" · ") || "-",
    },
  ],
};

/**
 * `issue tags <issue>`: one line per key with its top values and their shares; the document is the
 * service's list of keys. Piped: the key, then each value and its share as further tab-separated
 * cells (`environment\tproduction\t82%\tstaging\t18%`).
 */
export const ISSUE_TAGS_VIEW: DocView<readonly IssueTag[]> = {
  name: "issue tags",
  id: "key",
  document: (tags) => tags,
  sections: (tags) => [
    { block: tableBlock(ISSUE_TAG_KEYS_TABLE, tags, undefined), priority: 2, keep: 5, label: "tag keys" },
  ],
  piped: (tags) =>
    formatTable(
      [],
      tags.map((t) => [
        oneLine(t.key),
        ...(t.topValues ?? []).flatMap((v) => [valueText(v), sharePercent(v.count, t.totalValues)]),
      ]),
    ),
};

/** `issue tags <issue> <key>`: VALUE, COUNT, LAST SEEN (piped: value, count, RFC 3339 time). */
export const ISSUE_TAG_VALUES_VIEW: ListView<TagValue> = {
  name: "issue tags <key>",
  id: "value",
  document: (v) => v,
  columns: () => [
    { header: "value", flex: true, cell: valueText },
    {
      header: "count",
      align: "right",
      cell: (v, c) => (v.count == null ? "" : c.tty ? v.count.toLocaleString("en-US") : String(v.count)),
    },
    { header: "last seen", cell: (v, c) => listTime(v.lastSeen, c.now, c.tty) },
  ],
};
