import type { TrackerContext } from "../../context.ts";
import { eventErrors, eventImages, unsymbolicatedFrames } from "../../lib/debug-files/event-images.ts";
import { explainImages, fixCommand, type NativeExplainContext } from "../../lib/debug-files/explain.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
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
  const rows = frames.map((f) => {
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
  if (flags.json)
    return writeJson(this, {
      eventId: event.eventID,
      org,
      project,
      release: ec.release,
      images: explained,
      frames: rows,
      errors: errors.map((e) => ({ type: e.type, detail: e.detail })),
      fix,
    });
  if (rows.length === 0 && explained.length === 0) {
    writeLines(
      this,
      `Event ${event.eventID} has no unsymbolicated native frames and no ProGuard images: nothing to explain.`,
    );
    return;
  }
  const lines = [
    `Event ${event.eventID} (${org}/${project}): ${rows.length} unsymbolicated frame${rows.length === 1 ? "" : "s"}`,
  ];
  for (const img of explained) {
    const name = img.codeFile ?? img.type;
    lines.push(
      `  ${name}  ${img.debugId}${img.arch ? `  ${img.arch}` : ""}`,
      `    ${img.cause ?? "ok"}: ${img.detail}`,
    );
    const n = rows.filter((r) => r.debugId === img.debugId).length;
    if (n > 0) lines.push(`    ${n} frame${n === 1 ? "" : "s"} in this image`);
  }
  const orphans = rows.filter((r) => r.cause === "no_image").length;
  if (orphans > 0) lines.push(`  ${orphans} frame${orphans === 1 ? "" : "s"} outside every listed image`);
  writeLines(this, lines);
  if (fix) writeTip(this, `Fix: ${fix}`);
}
