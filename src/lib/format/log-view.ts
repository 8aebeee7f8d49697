/**
 * The `log view` document view: every attribute of one log as `key  value` pairs, the queried
 * fields first (in the service's order), then the rest by name, then the attributes only its trace
 * item carries (custom ones). The text is the aligned list it always was; the markdown titles it.
 */
import { LOG_VIEW_FIELDS } from "../api/logs.ts";
import type { DocView, ViewSection } from "../view/doc.ts";
import { attributeText, formatLogAttributes } from "./log-table.ts";

/** One log as `log view` found it: the queried row and, when its trace item was read, every attribute. */
export interface LogScreen {
  row: Record<string, unknown>;
  more: Record<string, unknown> | undefined;
}

/** The attributes in the order the view shows them, and how many are queried fields. */
export function logAttributes(d: LogScreen): { pairs: [string, unknown][]; fixed: number } {
  const known = new Set<string>(LOG_VIEW_FIELDS);
  const fixed = LOG_VIEW_FIELDS.filter((k) => k in d.row).map((k): [string, unknown] => [k, d.row[k]]);
  const pairs: [string, unknown][] = [
    ...fixed,
    ...Object.keys(d.row)
      .filter((k) => !known.has(k))
      .sort()
      .map((k): [string, unknown] => [k, d.row[k]]),
  ];
  const shown = new Set(pairs.map(([k]) => k));
  for (const [k, v] of Object.entries(d.more ?? {}).sort(([a], [b]) => a.localeCompare(b)))
    if (!shown.has(k)) pairs.push([k, v]);
  return { pairs, fixed: fixed.length };
}

/**
 * `log view`. Piped and on a terminal the aligned list (cut to the width on a terminal); the
 * markdown (the only caller of `sections` without a terminal, as `piped` gives the piped text) a
 * title and the pairs, the queried fields kept longest under `--max-chars`.
 */
export const LOG_VIEW: DocView<LogScreen> = {
  name: "log view",
  id: "sentry.item_id",
  document: (d) => (d.more ? { ...d.row, attributes: d.more } : d.row),
  sections: (d, c): ViewSection[] => {
    const { pairs, fixed } = logAttributes(d);
    if (c.tty) return [{ block: { kind: "lines", lines: formatLogAttributes(pairs, { width: c.width }) } }];
    return [
      { block: { kind: "lines", lines: [`Log ${attributeText(d.row["sentry.item_id"])}`] } },
      {
        heading: "Attributes",
        block: { kind: "pairs", pairs: pairs.map(([k, v]) => [k, attributeText(v)] as const) },
        priority: 2,
        keep: fixed,
        label: "attributes",
      },
    ];
  },
  piped: (d) => formatLogAttributes(logAttributes(d).pairs),
};
