import type { TrackerContext } from "../../context.ts";
import { getReplay, listReplaySegments } from "../../lib/api/replays.ts";
import { REPLAY_VIEW, replayBreadcrumbs, toReplayRow } from "../../lib/format/replay.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { ReplayViewFlags } from "./index.ts";
import { parseHexId } from "../../lib/hex-id.ts";

/** `tracker replay view <replay-id> [<org>/<project>]`: the replay and its breadcrumbs, fetched together. */
export default async function replayView(
  this: TrackerContext,
  flags: ReplayViewFlags,
  rawId: string,
  target?: string,
) {
  const id = parseHexId(rawId, "replay", "replay-id");
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker replay view <replay-id>",
    fresh: flags.fresh,
  });
  const [replay, segments] = await Promise.all([
    getReplay(this, org, project, id),
    listReplaySegments(this, org, project, id),
  ]);
  const r = replay;
  const view = {
    ...toReplayRow(r),
    org,
    project,
    allUrls: r.urls ?? [],
    errorIds: r.error_ids ?? [],
    traceIds: r.trace_ids ?? [],
    releases: r.releases ?? [],
    breadcrumbs: replayBreadcrumbs(segments),
  };
  await writeDocView(this, flags.json, REPLAY_VIEW, view);
}
