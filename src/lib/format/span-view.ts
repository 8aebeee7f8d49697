/**
 * The `span view` document view: the span, its trace and project, its time, then every attribute
 * by name. The text is the same piped and on a terminal; the markdown gives the attributes as pairs.
 */
import type { TraceItem } from "../api/trace-items.ts";
import type { DocView, ViewSection } from "../view/doc.ts";
import { oneLine } from "./one-line.ts";
import { isoSeconds } from "./time.ts";

/** The `span view --json` document. */
export interface SpanDocument {
  spanId: string;
  traceId: string;
  org: string;
  project: string;
  timestamp: string | null;
  /** Sorted by name. */
  attributes: TraceItem["attributes"];
}

function titleLines(d: SpanDocument): string[] {
  return [
    `Span ${d.spanId} (trace ${d.traceId}, ${d.org}/${d.project})`,
    `  Timestamp:  ${isoSeconds(d.timestamp)}`,
  ];
}

function valueText(value: unknown): string {
  return oneLine(value === null || value === undefined ? "-" : String(value));
}

/** `  name  value` per attribute, the names padded to the longest. */
function attributeLines(d: SpanDocument): string[] {
  const width = Math.max(0, ...d.attributes.map((a) => a.name.length));
  return d.attributes.map((a) => `  ${oneLine(a.name).padEnd(width)}  ${valueText(a.value)}`);
}

/**
 * `span view`. The text (piped, or on a terminal) is the title, then `Attributes` and the aligned
 * list; the markdown (the only caller of `sections` without a terminal, as `piped` gives the piped
 * text) has the attributes as pairs under their heading.
 */
export const SPAN_VIEW: DocView<SpanDocument> = {
  name: "span view",
  id: "spanId",
  document: (d) => d,
  sections: (d, c): ViewSection[] => [
    { block: { kind: "lines", lines: titleLines(d) } },
    c.tty
      ? { block: { kind: "lines", lines: ["Attributes", ...attributeLines(d)] } }
      : {
          heading: "Attributes",
          block: {
            kind: "pairs",
            pairs: d.attributes.map((a) => [oneLine(a.name), valueText(a.value)] as const),
          },
          priority: 2,
          label: "attributes",
        },
  ],
  piped: (d) => [...titleLines(d), "", "Attributes", ...attributeLines(d)],
};
