import type { TrackerContext } from "../../context.ts";
import { getSourceMapDebug } from "../../lib/api/artifacts.ts";
import { SOURCEMAP_EXPLAIN_VIEW, type SourcemapExplainReport } from "../../lib/format/sourcemap-explain.ts";
import { writeTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { eventTag } from "../../lib/sourcemap/event-frames.ts";
import {
  type ExplainContext,
  explainFromBundles,
  explainFromDebug,
  refineByRelease,
  fixCommand,
} from "../../lib/sourcemap/explain.ts";
import type { ExplainFlags } from "./index.ts";
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
  const report: SourcemapExplainReport = {
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
  };
  await writeDocView(this, flags.json, SOURCEMAP_EXPLAIN_VIEW, report);
  if (fix && !flags.json) writeTip(this, `Fix: ${fix}`);
}
