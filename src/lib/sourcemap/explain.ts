/**
 * Why a frame is still minified (API.md §20.4). With Sentry's per-event debug answer each frame's
 * debug-ID and release lookups are read from it; without it (older and self-hosted services) the
 * same questions are asked of the event's `debugmeta` images, the project's artifact bundles and
 * the release's files. Each frame gets one cause; the report ends with the command that fixes the
 * first one.
 */
import type { TrackerContext } from "../../context.ts";
import type { ApiEvent } from "../api/events.ts";
import {
  type SourceMapDebug,
  listArtifactBundles,
  listBundleFiles,
  listReleaseFiles,
} from "../api/artifacts.ts";
import { debugImages, type MinifiedFrame, minifiedFrames, notCoveredByMap } from "./event-frames.ts";
import { quoteWord } from "../shell-quote.ts";

/** What keeps a frame minified. */
export type FrameCause =
  | "no_debug_id"
  | "no_bundle"
  | "bundle_missing_file"
  | "release_mismatch"
  | "dist_mismatch"
  | "url_mismatch"
  | "map_not_covering"
  | "not_applied";

/** One frame's explanation. */
export interface FrameExplanation extends MinifiedFrame {
  debugId: string | null;
  cause: FrameCause;
  detail: string;
  /** For url_mismatch: the `--url-prefix` that would make the uploaded URL match. */
  urlPrefix?: string;
}

/** Facts of the event the causes and the fix need. */
export interface ExplainContext {
  target: string;
  release?: string;
  dist?: string;
}

/** The file path part of a frame's URL as an upload names it: `~/static/app.js`. */
export function tildeUrl(absPath: string): string {
  try {
    return `~${new URL(absPath).pathname}`;
  } catch {
    return `~/${absPath.replace(/^\/+/, "")}`;
  }
}

/** The prefix that turns an uploaded `candidate` URL into the frame's (`~/static/` for `~/app.js` vs …/static/app.js). */
export function prefixFor(absPath: string, candidate: string): string | undefined {
  const want = tildeUrl(absPath);
  const rel = candidate.replace(/^~\//, "").replace(/^[a-z]+:\/\/[^/]*\//i, "");
  return want.endsWith(`/${rel}`) ? want.slice(0, want.length - rel.length) : undefined;
}

const base = (p: string) =>
  p
    .replace(/[?#].*$/, "")
    .split("/")
    .pop() ?? p;

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

function covered(
  event: ApiEvent,
  at: FrameExplanation | (MinifiedFrame & { debugId: string | null }),
): FrameExplanation {
  if (notCoveredByMap(event, at))
    return {
      ...at,
      cause: "map_not_covering",
      detail: `the uploaded map has no mapping for line ${at.lineNo}:${at.colNo} (a map from another build?)`,
    };
  return {
    ...at,
    cause: "not_applied",
    detail:
      "file and map are uploaded; the event was processed before the upload (new events will be symbolicated)",
  };
}

function urlMismatch(at: MinifiedFrame & { debugId: string | null }, candidate: string): FrameExplanation {
  const prefix = prefixFor(at.absPath, candidate);
  return {
    ...at,
    cause: "url_mismatch",
    detail: `uploaded as ${candidate}, but the event asks for ${tildeUrl(at.absPath)}`,
    ...(prefix ? { urlPrefix: prefix } : {}),
  };
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
  for (const f of minifiedFrames(event)) {
    const id = images.get(f.absPath) ?? null;
    const at = { ...f, debugId: id };
    if (id) {
      const bundles = await listArtifactBundles(ctx, org, project, id);
      if (bundles.length === 0) {
        out.push({ ...at, cause: "no_bundle", detail: `no uploaded bundle has debug ID ${id}` });
        continue;
      }
      const files = await listBundleFiles(
        ctx,
        org,
        project,
        (bundles[0] as { bundleId: string }).bundleId,
        id,
      );
      const hasMap = files.some((x) => x.fileType === 3);
      const hasFile = files.some((x) => x.fileType === 2);
      if (!hasMap || !hasFile) {
        const which = hasMap ? "the minified file" : "its source map";
        out.push({
          ...at,
          cause: "bundle_missing_file",
          detail: `bundle ${bundles[0]?.bundleId} has debug ID ${id} but not ${which}`,
        });
        continue;
      }
      out.push(covered(event, at));
      continue;
    }
    out.push(await explainByRelease(ctx, org, project, event, at, ec));
  }
  return out;
}

async function explainByRelease(
  ctx: TrackerContext,
  org: string,
  project: string,
  event: ApiEvent,
  at: MinifiedFrame & { debugId: string | null },
  ec: ExplainContext,
): Promise<FrameExplanation> {
  const noId: FrameExplanation = {
    ...at,
    cause: "no_debug_id",
    detail: `the event has no debug ID for ${at.absPath} (the deployed file was not injected)`,
  };
  if (!ec.release) return noId;
  const release = ec.release;
  const bundles = (await listArtifactBundles(ctx, org, project, release)).filter((b) =>
    (b.associations ?? []).some((a) => a.release === release),
  );
  const names: { url: string; dist: string | null }[] = [];
  for (const b of bundles.slice(0, 5)) {
    const dist = b.associations?.find((a) => a.release === release)?.dist ?? null;
    for (const file of await listBundleFiles(ctx, org, project, b.bundleId, base(at.absPath)))
      if (file.fileType === 2) names.push({ url: file.filePath, dist });
  }
  for (const file of await listReleaseFiles(ctx, org, project, release))
    names.push({ url: file.name, dist: file.dist ?? null });
  if (names.length === 0 && bundles.length === 0) {
    const other = await listArtifactBundles(ctx, org, project, "");
    const rel = other
      .flatMap((b) => (b.associations ?? []).map((a) => a.release))
      .find((r) => r && r !== release);
    if (rel)
      return {
        ...at,
        cause: "release_mismatch",
        detail: `nothing was uploaded for release ${release} (the newest upload is for ${rel})`,
      };
    return noId;
  }
  const want = tildeUrl(at.absPath);
  const exact = names.filter((n) => n.url === want || n.url === at.absPath);
  if (exact.length > 0) {
    const dist = ec.dist ?? null;
    if (!exact.some((n) => n.dist === dist))
      return {
        ...at,
        cause: "dist_mismatch",
        detail: `${want} was uploaded for release ${release} with dist ${exact[0]?.dist ?? "none"}, the event has dist ${dist ?? "none"}`,
      };
    return covered(event, at);
  }
  const near = names.find((n) => base(n.url) === base(at.absPath));
  if (near) return urlMismatch(at, near.url);
  return {
    ...at,
    cause: "bundle_missing_file",
    detail: `release ${release} has uploads, but none for ${want}`,
  };
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
