import type { TrackerContext } from "../../context.ts";
import { getSourceMapDebug } from "../../lib/api/artifacts.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
import { eventTag } from "../../lib/sourcemap/event-frames.ts";
import {
  type ExplainContext,
  explainFromBundles,
  explainFromDebug,
  refineByRelease,
  fixCommand,
} from "../../lib/sourcemap/explain.ts";
import type { ExplainFlags } from "./index.ts";
import { oneLine } from "../../lib/format/one-line.ts";
import { eventOrLatest } from "../../lib/issue/event-or-issue.ts";

/** `tracker sourcemap explain`: per minified frame, what is missing, then the fixing command. */
export default async function sourcemapExplain(
  this: TrackerContext,
  flags: ExplainFlags,
  ref: string,
  target?: string,
): Promise<void> {
  const { org, project, event } = await eventOrLatest(
    this,
    ref,
    target,
    "tracker sourcemap explain <event-id>",
  );
  const ec: ExplainContext = {
    target: `${org}/${project}`,
    release: eventTag(event, "release"),
    dist: eventTag(event, "dist"),
  };
  const debug = await getSourceMapDebug(this, org, project, event.eventID);
  const frames = debug
    ? await refineByRelease(this, org, project, event, explainFromDebug(event, debug, ec), ec)
    : await explainFromBundles(this, org, project, event, ec);
  const fix = fixCommand(frames, ec) ?? null;
  if (flags.json) {
    return writeJson(this, {
      eventId: event.eventID,
      org,
      project,
      release: ec.release ?? null,
      dist: ec.dist ?? null,
      source: debug ? "debug-endpoint" : "bundles",
      frames: frames.map((f) => ({
        absPath: f.absPath,
        function: f.function,
        lineNo: f.lineNo,
        colNo: f.colNo,
        debugId: f.debugId,
        cause: f.cause,
        detail: f.detail,
      })),
      fix,
    });
  }
  if (frames.length === 0) {
    writeLines(this, `Event ${event.eventID} has no minified JavaScript frames: nothing to explain.`);
    return;
  }
  const lines = [
    `Event ${event.eventID} (${org}/${project}): ${frames.length} minified frame${frames.length === 1 ? "" : "s"}`,
  ];
  for (const f of frames) {
    const at = `${f.absPath}:${f.lineNo ?? "?"}:${f.colNo ?? "?"}`;
    lines.push(oneLine(`  ${f.function ?? "?"}  ${at}`), oneLine(`    ${f.cause}: ${f.detail}`));
  }
  writeLines(this, lines);
  if (fix) writeTip(this, `Fix: ${fix}`);
}
