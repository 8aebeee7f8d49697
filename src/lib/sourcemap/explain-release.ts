/**
 * Explaining a frame by its release (no debug ID, or Sentry's debug answer did not say why): the
 * bundles and release files of the event's release show a release or dist mismatch, a URL that
 * is only near the frame's, or files missing from the release's uploads.
 */
import type { TrackerContext } from "../../context.ts";
import type { ApiEvent } from "../api/events.ts";
import { listArtifactBundles, listBundleFiles, listReleaseFiles } from "../api/artifacts.ts";
import type { MinifiedFrame } from "./event-frames.ts";
import {
  base,
  covered,
  type ExplainContext,
  type FrameExplanation,
  tildeUrl,
  urlMismatch,
} from "./explain-frame.ts";

/** The listings that do not depend on the frame, asked once per explain run however many frames there are. */
export interface UploadLookups {
  bundles(query: string): ReturnType<typeof listArtifactBundles>;
  releaseFiles(release: string): ReturnType<typeof listReleaseFiles>;
}

/** UploadLookups of one project, each answer remembered for the run. */
export function uploadLookups(ctx: TrackerContext, org: string, project: string): UploadLookups {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, ask: () => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = ask();
      memo.set(key, p);
    }
    return p;
  };
  return {
    bundles: (query) => once(`bundles ${query}`, () => listArtifactBundles(ctx, org, project, query)),
    releaseFiles: (release) => once(`files ${release}`, () => listReleaseFiles(ctx, org, project, release)),
  };
}

/**
 * The debug answer's frames without a debug ID, looked at again by release: Sentry's debug endpoint
 * says the lookup failed but not that the files went to another release or dist, which the bundle
 * and release listings show (a release or dist mismatch is then the cause, not "no debug ID").
 */
export async function refineByRelease(
  ctx: TrackerContext,
  org: string,
  project: string,
  event: ApiEvent,
  frames: readonly FrameExplanation[],
  ec: ExplainContext,
): Promise<FrameExplanation[]> {
  if (!ec.release) return [...frames];
  const lookups = uploadLookups(ctx, org, project);
  const out: FrameExplanation[] = [];
  for (const f of frames) {
    if (f.cause !== "no_debug_id") {
      out.push(f);
      continue;
    }
    const again = await explainByRelease(ctx, org, project, event, f, ec, lookups);
    out.push(again.cause === "release_mismatch" || again.cause === "dist_mismatch" ? again : f);
  }
  return out;
}

/** One frame explained by the uploads of the event's release (see the module's comment). */
export async function explainByRelease(
  ctx: TrackerContext,
  org: string,
  project: string,
  event: ApiEvent,
  at: MinifiedFrame & { debugId: string | null },
  ec: ExplainContext,
  lookups: UploadLookups,
): Promise<FrameExplanation> {
  const noId: FrameExplanation = {
    ...at,
    cause: "no_debug_id",
    detail: `the event has no debug ID for ${at.absPath} (the deployed file was not injected)`,
  };
  if (!ec.release) return noId;
  const release = ec.release;
  const bundles = (await lookups.bundles(release)).filter((b) =>
    (b.associations ?? []).some((a) => a.release === release),
  );
  const names: { url: string; dist: string | null }[] = [];
  for (const b of bundles.slice(0, 5)) {
    const dist = b.associations?.find((a) => a.release === release)?.dist ?? null;
    for (const file of await listBundleFiles(ctx, org, project, b.bundleId, base(at.absPath)))
      if (file.fileType === 2) names.push({ url: file.filePath, dist });
  }
  for (const file of await lookups.releaseFiles(release))
    names.push({ url: file.name, dist: file.dist ?? null });
  if (names.length === 0 && bundles.length === 0) {
    const other = await lookups.bundles("");
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
