/** Human rendering of `debug-files check` (pure). */
import { DIF_FORMAT_NAMES, type DifCheckReport } from "../debug-files/check.ts";
import type { DifKind } from "../debug-files/types.ts";

const KIND_NAMES: Record<DifKind, string> = {
  exe: "executable",
  lib: "library",
  dbg: "debug companion",
  rel: "relocatable object",
  src: "source",
  sources: "source bundle",
  other: "other",
};

/** The report as labelled lines, one block per object (a fat Mach-O has one per architecture). */
export function formatDifCheck(r: DifCheckReport): string[] {
  const lines = [
    `File:      ${r.path}`,
    // A source bundle's kind has the format's name: "source bundle", not "source bundle source bundle".
    `Format:    ${[...new Set([DIF_FORMAT_NAMES[r.format], KIND_NAMES[r.kind]])].join(" ")}`,
    `Features:  ${r.features.length > 0 ? r.features.join(", ") : "none"}`,
    `Usable:    ${r.usable ? "yes" : `no (${r.problem})`}`,
  ];
  for (const o of r.objects) {
    lines.push("");
    lines.push(`Arch:      ${o.arch}`);
    lines.push(`Debug ID:  ${o.debugId ?? "none"}`);
    lines.push(`Code ID:   ${o.codeId ?? "none"}`);
    if (r.objects.length > 1) {
      lines.push(`Features:  ${o.features.length > 0 ? o.features.join(", ") : "none"}`);
      lines.push(`Slice:     bytes ${o.offset}-${o.offset + o.size}`);
    }
    if (o.debugFile) lines.push(`Debug file: ${o.debugFile}`);
  }
  return lines;
}
