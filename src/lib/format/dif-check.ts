/** The `debug-files check` report: the file's format, kind and features, then each object's IDs. */
import { DIF_FORMAT_NAMES, type DifCheckReport } from "../debug-files/check.ts";
import type { DifKind } from "../debug-files/types.ts";
import type { DocView, ViewSection } from "../view/doc.ts";

const KIND_NAMES: Record<DifKind, string> = {
  exe: "executable",
  lib: "library",
  dbg: "debug companion",
  rel: "relocatable object",
  src: "source",
  sources: "source bundle",
  other: "other",
};

/** `Label:` then the value from this column, as sentry-cli lays its check out. */
const COLUMN = 11;

const listed = (features: readonly string[]) => (features.length > 0 ? features.join(", ") : "none");

/**
 * The report as labelled lines: the file, then one block per object (a fat Mach-O has one per
 * architecture, each with its own features and byte range).
 */
export const DIF_CHECK_VIEW: DocView<DifCheckReport> = {
  name: "debug-files check",
  id: "path",
  document: (r) => r,
  sections: (r) => [
    {
      block: {
        kind: "pairs",
        column: COLUMN,
        pairs: [
          ["File", r.path],
          // A source bundle's kind has the format's name: "source bundle", not "source bundle source bundle".
          ["Format", [...new Set([DIF_FORMAT_NAMES[r.format], KIND_NAMES[r.kind]])].join(" ")],
          ["Features", listed(r.features)],
          ["Usable", r.usable ? "yes" : `no (${r.problem})`],
        ],
      },
    },
    ...r.objects.map(
      (o): ViewSection => ({
        block: {
          kind: "pairs",
          column: COLUMN,
          pairs: [
            ["Arch", o.arch],
            ["Debug ID", o.debugId ?? "none"],
            ["Code ID", o.codeId ?? "none"],
            ...(r.objects.length > 1
              ? ([
                  ["Features", listed(o.features)],
                  ["Slice", `bytes ${o.offset}-${o.offset + o.size}`],
                ] as const)
              : []),
            ...(o.debugFile ? ([["Debug file", o.debugFile]] as const) : []),
          ],
        },
        label: "objects",
      }),
    ),
  ],
};
