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
  const out: FrameExplanation[] = [];
  for (const f of frames) {
    if (f.cause !== "no_debug_id") {
      out.push(f);
      continue;
    }
    const again = await explainByRelease(ctx, org, project, event, f, ec);
    out.push(again.cause === "release_mismatch" || again.cause === "dist_mismatch" ? again : f);
  }
  return out;
}

export async function explainByRelease(
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
