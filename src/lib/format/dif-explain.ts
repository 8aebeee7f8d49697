/**
 * The `debug-files explain` report: per image the event's unsymbolicated frames fall in, its
 * verdict (cause and detail) and how many frames it holds; the fixing command goes to stderr.
 */
import type { ImageCause, ImageExplanation } from "../debug-files/explain.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";
import { oneLine } from "./one-line.ts";

/** One unsymbolicated frame and the cause of the image it falls in. */
export interface DifExplainFrame {
  function: string | null;
  instructionAddr: string | null;
  package: string | null;
  debugId: string | null;
  cause: ImageCause | null;
  detail: string;
}

/** What `debug-files explain` answers (its `--json` document). */
export interface DifExplainReport {
  eventId: string;
  org: string;
  project: string;
  release: string | null;
  images: ImageExplanation[];
  frames: DifExplainFrame[];
  errors: { type: string; detail: string }[];
  fix: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** An image with the number of frames in it. */
interface ImageRow {
  image: ImageExplanation;
  frames: number;
}

/** One image: its file, debug ID, architecture, verdict and frames. */
export const DIF_EXPLAIN_IMAGE_VIEW: ListView<ImageRow> = {
  name: "debug-files explain image",
  partOf: "debug-files explain",
  id: "debugId",
  document: (r) => r.image,
  columns: () => [
    { header: "image", cell: (r) => r.image.codeFile ?? r.image.type },
    { header: "debug id", cell: (r) => r.image.debugId },
    { header: "arch", cell: (r) => r.image.arch ?? "" },
    { header: "verdict", cell: (r) => `${r.image.cause ?? "ok"}: ${r.image.detail}` },
    { header: "frames", cell: (r) => (r.frames > 0 ? `${plural(r.frames, "frame")} in this image` : "") },
  ],
};

/** `  <image>  <debug id>  <arch>` over its verdict and frame count, each on one line. */
function imageLines([image, id, arch, verdict, frames]: readonly string[]): string[] {
  return [
    `  ${image}  ${id}${arch ? `  ${arch}` : ""}`,
    `    ${verdict}`,
    ...(frames ? [`    ${frames}`] : []),
  ].map(oneLine);
}

/** The headline, each image's lines, then the frames outside every image. */
export const DIF_EXPLAIN_VIEW: DocView<DifExplainReport> = {
  name: "debug-files explain",
  id: "eventId",
  document: (r) => r,
  sections: (r) => {
    const n = r.frames.length;
    if (n === 0 && r.images.length === 0)
      return [
        {
          block: {
            kind: "lines",
            lines: [
              `Event ${r.eventId} has no unsymbolicated native frames and no ProGuard images: nothing to explain.`,
            ],
          },
        },
      ];
    const rows = r.images.map((image) => ({
      image,
      frames: r.frames.filter((f) => f.debugId === image.debugId).length,
    }));
    const orphans = r.frames.filter((f) => f.cause === "no_image").length;
    return [
      {
        block: {
          kind: "lines",
          lines: [`Event ${r.eventId} (${r.org}/${r.project}): ${plural(n, "unsymbolicated frame")}`],
        },
      },
      {
        block: tableBlock(DIF_EXPLAIN_IMAGE_VIEW, rows, undefined, imageLines),
        tight: true,
        priority: 2,
        keep: 3,
        label: "images",
      },
      {
        block: {
          kind: "lines",
          lines: orphans > 0 ? [`  ${plural(orphans, "frame")} outside every listed image`] : [],
        },
        tight: true,
      },
      { heading: "Fix", block: { kind: "lines", lines: r.fix ? [r.fix] : [] }, markdownOnly: true },
    ];
  },
};
