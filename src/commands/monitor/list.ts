import type { TrackerContext } from "../../context.ts";
import { listMonitors } from "../../lib/api/monitors.ts";
import { MONITOR_LIST_VIEW } from "../../lib/format/monitor-table.ts";
import { rememberCompletionValues } from "../../lib/db/completion-values.ts";
import { writeListTip, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import { resolveOrg } from "../../lib/resolve/target.ts";
import type { MonitorListFlags } from "./index.ts";
import { withSlugHint } from "../../lib/resolve/not-found.ts";

/** `tracker monitor list`: resolve the organization, one request, render. */
export default async function monitorList(
  this: TrackerContext,
  flags: MonitorListFlags,
  target?: string,
): Promise<void> {
  const { org } = await resolveOrg(this, target, { command: "tracker monitor list" });
  const { monitors, hasMore } = await withSlugHint(this, { org }, () => listMonitors(this, org));
  rememberCompletionValues(
    this,
    "monitor",
    org,
    monitors.map((m) => m.slug),
  );
  const run = { view: MONITOR_LIST_VIEW, items: monitors, options: undefined, hasMore };
  if (flags.json) return writeListView(this, true, run);
  if (monitors.length === 0) {
    writeTip(
      this,
      `No cron monitors in ${org}. Create one with: tracker monitor run <slug> --schedule '<crontab>' -- <command>`,
    );
    return;
  }
  await writeListView(this, false, run);
  const more = hasMore ? " More exist; the service shows them all." : "";
  writeListTip(
    this,
    `Showing ${monitors.length} monitor${monitors.length === 1 ? "" : "s"} of ${org}.${more}`,
  );
}
