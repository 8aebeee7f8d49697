/**
 * Why a frame is still minified (API.md §20.4). With Sentry's per-event debug answer each frame's
 * debug-ID and release lookups are read from it; without it (older and self-hosted services) the
 * same questions are asked of the event's `debugmeta` images, the project's artifact bundles and
 * the release's files. Each frame gets one cause; the report ends with the command that fixes the
 * first one.
 */
import type { TrackerContext } from "../../context.ts";
import type { ApiEvent } from "../api/events.ts";
import { type SourceMapDebug, listArtifactBundles, listBundleFiles } from "../api/artifacts.ts";
import { debugImages, minifiedFrames } from "./event-frames.ts";
import { base, covered, type ExplainContext, type FrameExplanation, urlMismatch } from "./explain-frame.ts";
import { explainByRelease, uploadLookups } from "./explain-release.ts";

export type { ExplainContext, FrameCause, FrameExplanation } from "./explain-frame.ts";
export { prefixFor, tildeUrl } from "./explain-frame.ts";
export { refineByRelease } from "./explain-release.ts";
import { quoteWord } from "../shell-quote.ts";

/** Explains frames from Sentry's per-event debug answer. */
export function explainFromDebug(
  event: ApiEvent,
  debug: SourceMapDebug,
  ec: ExplainContext,
): FrameExplanation[] {
  return minifiedFrames(event).map((f) => {
    const d = debug.exceptions[f.exception]?.frames[f.index];
    const id = d?.debug_id_process?.debug_id ?? null;
    const file = d?.debug_id_process?.uploaded_source_file_with_correct_debug_id === true;
    const map = d?.debug_id_process?.uploaded_source_map_with_correct_debug_id === true;
    const at = { ...f, debugId: id };
    if (id) {
      if (!file && !map)
        return { ...at, cause: "no_bundle", detail: `no uploaded bundle has debug ID ${id}` };
      if (!map)
        return {
          ...at,
          cause: "bundle_missing_file",
          detail: `the bundle with debug ID ${id} has the file but not its source map`,
        };
      if (!file)
        return {
          ...at,
          cause: "bundle_missing_file",
          detail: `the bundle with debug ID ${id} has the map but not the minified file`,
        };
      return covered(event, at);
    }
    const r = d?.release_process;
    if (ec.release && r) {
      if (r.source_file_lookup_result === "wrong-dist")
        return {
          ...at,
          cause: "dist_mismatch",
          detail: `files of release ${ec.release} were uploaded with another dist than the event's (${ec.dist ?? "none"})`,
        };
      if (r.source_file_lookup_result === "found" && r.source_map_lookup_result === "found")
        return covered(event, at);
      const names = r.matching_source_file_names ?? [];
      const near = names.find((n) => base(n) === base(f.absPath));
      if (near) return urlMismatch(at, near);
    }
    return {
      ...at,
      cause: "no_debug_id",
      detail: `the event has no debug ID for ${f.absPath} (the deployed file was not injected)`,
    };
  });
}

/** Explains frames by asking the bundle and release endpoints (services without the debug endpoint). */
export async function explainFromBundles(
  ctx: TrackerContext,
  org: string,
  project: string,
  event: ApiEvent,
  ec: ExplainContext,
): Promise<FrameExplanation[]> {
  const images = debugImages(event);
  const out: FrameExplanation[] = [];
  const lookups = uploadLookups(ctx, org, project);
  for (const f of minifiedFrames(event)) {
    const id = images.get(f.absPath) ?? null;
    const at = { ...f, debugId: id };
    if (id) {
      const bundles = await listArtifactBundles(ctx, org, project, id);
      if (bundles.length === 0) {
        out.push({ ...at, cause: "no_bundle", detail: `no uploaded bundle has debug ID ${id}` });
        continue;
      }
      // A file and its map may be in different bundles with the same debug ID: look in each (≤ 5).
      let hasMap = false;
      let hasFile = false;
      for (const b of bundles.slice(0, 5)) {
        for (const x of await listBundleFiles(ctx, org, project, b.bundleId, id)) {
          hasMap ||= x.fileType === 3;
          hasFile ||= x.fileType === 2;
        }
        if (hasMap && hasFile) break;
      }
      if (!hasMap || !hasFile) {
        const which = hasMap ? "the minified file" : "its source map";
        out.push({
          ...at,
          cause: "bundle_missing_file",
          detail:
            bundles.length === 1
              ? `bundle ${bundles[0]?.bundleId} has debug ID ${id} but not ${which}`
              : `none of the ${bundles.length} bundles with debug ID ${id} has ${which}`,
        });
        continue;
      }
      out.push(covered(event, at));
      continue;
    }
    out.push(await explainByRelease(ctx, org, project, event, at, ec, lookups));
  }
  return out;
}

/** The one command that fixes the first explained frame (`<build-dir>` is the directory of the deployed files). */
export function fixCommand(frames: readonly FrameExplanation[], ec: ExplainContext): string | undefined {
  const f = frames[0];
  if (!f) return undefined;
  const upload = `tracker sourcemap upload <build-dir> ${quoteWord(ec.target)}`;
  const rel = ec.release ? ` --release ${quoteWord(ec.release)}` : "";
  const dist = ec.dist ? ` --dist ${quoteWord(ec.dist)}` : "";
  switch (f.cause) {
    case "no_debug_id":
      return `tracker sourcemap inject <build-dir> && ${upload}   (then deploy the injected files)`;
    case "release_mismatch":
    case "dist_mismatch":
      return `${upload}${rel}${dist}`;
    case "url_mismatch":
      return `${upload}${rel}${dist}${f.urlPrefix ? ` --url-prefix ${quoteWord(f.urlPrefix)}` : ""}`;
    case "map_not_covering":
      return `${upload}   (from the same build that was deployed, maps included)`;
    case "not_applied":
      return undefined;
    default:
      return upload;
  }
}
