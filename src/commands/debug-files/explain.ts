import type { TrackerContext } from "../../context.ts";
import { eventErrors, eventImages, unsymbolicatedFrames } from "../../lib/debug-files/event-images.ts";
import { explainImages, fixCommand, type NativeExplainContext } from "../../lib/debug-files/explain.ts";
import {
  DIF_EXPLAIN_VIEW,
  type DifExplainFrame,
  type DifExplainReport,
} from "../../lib/format/dif-explain.ts";
import { writeTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { eventTag } from "../../lib/sourcemap/event-frames.ts";
import type { DifExplainFlags } from "./routes-upload.ts";
import { eventOrLatest } from "../../lib/issue/event-or-issue.ts";

/** `tracker debug-files explain`: per image of the unsymbolicated frames, the cause; then the fix. */
export default async function debugFilesExplain(
  this: TrackerContext,
  flags: DifExplainFlags,
  ref: string,
  target?: string,
): Promise<void> {
  const { org, project, event } = await eventOrLatest(
    this,
    ref,
    target,
    "tracker debug-files explain <event-id>",
  );
  const images = eventImages(event);
  const frames = unsymbolicatedFrames(event, images);
  const errors = eventErrors(event);
  const ec: NativeExplainContext = {
    org,
    project,
    release: eventTag(event, "release") ?? null,
    dateReceived: event.dateReceived ?? null,
  };
  const proguard = images.filter((i) => i.type === "proguard");
  const explained = await explainImages(this, frames, proguard, errors, ec);
  const byId = new Map(explained.map((e) => [e.debugId, e]));
  const rows = frames.map((f): DifExplainFrame => {
    const e = f.image ? byId.get(f.image.debugId) : undefined;
    return {
      function: f.function,
      instructionAddr: f.instructionAddr,
      package: f.package,
      debugId: f.image?.debugId ?? null,
      cause: f.image ? (e?.cause ?? null) : "no_image",
      detail: f.image
        ? (e?.detail ?? "")
        : "the frame's address is in no image the event lists (a JIT or stripped frame)",
    };
  });
  const fix = fixCommand(explained, ec) ?? null;
  const report: DifExplainReport = {
    eventId: event.eventID,
    org,
    project,
    release: ec.release,
    images: explained,
    frames: rows,
    errors: errors.map((e) => ({ type: e.type, detail: e.detail })),
    fix,
  };
  await writeDocView(this, flags.json, DIF_EXPLAIN_VIEW, report);
  // A fix names an image, so a report with one has something to explain.
  if (fix && !flags.json) writeTip(this, `Fix: ${fix}`);
}
