import type { TrackerContext } from "../../context.ts";
import { listReplays } from "../../lib/api/replays.ts";
import { REPLAY_LIST_VIEW, toReplayRow } from "../../lib/format/replay.ts";
import { writePastEnd, writeTip } from "../../lib/output.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { getProjectId } from "../../lib/resolve/project-id.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeListView } from "../../lib/view/render.ts";
import { REPLAY_LIMIT, REPLAY_PERIOD } from "./defaults.ts";
import type { ReplayListFlags } from "./index.ts";

/** `tracker replay list [<org>/<project>]`: the project's replays, newest first. */
export default async function replayList(this: TrackerContext, flags: ReplayListFlags, target?: string) {
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker replay list",
    fresh: flags.fresh,
  });
  const key = cursorKey("replay-list", `${org}/${project}`, { query: flags.query, period: flags.period });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `replays in ${org}/${project}`);
  // `-c last` is the position saved by the previous listing, never a cursor to send as it is.
  const cursor = resolveCursor(this, key, flags.cursor);
  const projectId = await getProjectId(this, org, project, flags.fresh);
  const page = await listReplays(this, {
    org,
    projectId,
    period: flags.period,
    limit: flags.limit,
    query: flags.query,
    cursor,
  });
  saveCursor(this, key, page.nextCursor);
  const { data, ...rest } = page;
  const rows = data.map(toReplayRow);
  const run = {
    view: REPLAY_LIST_VIEW,
    items: rows,
    options: undefined,
    page: rest,
    save: (c: string | undefined) => saveCursor(this, key, c),
    title: `Replays of ${org}/${project}`,
  };
  if (flags.json) return writeListView(this, true, run);
  if (rows.length === 0)
    return writeTip(this, `No replays in ${org}/${project} in the last ${flags.period}.`);
  await writeListView(this, false, run);
  if (page.nextCursor)
    writeTip(this, `More: ${nextPageCommand("tracker replay list", `${org}/${project}`, pageWords(flags))}`);
}

/** The words that repeat this listing's flags, so the next page keeps its filters (nextPageCommand quotes them). */
function pageWords(flags: ReplayListFlags): string[] {
  const words: string[] = [];
  if (flags.query?.trim()) words.push("-q", flags.query.trim());
  if (flags.period !== REPLAY_PERIOD) words.push("-t", flags.period);
  if (flags.limit !== REPLAY_LIMIT.fallback) words.push("-n", String(flags.limit));
  return words;
}
