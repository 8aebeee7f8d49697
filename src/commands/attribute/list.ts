import type { TrackerContext } from "../../context.ts";
import { listAttributes } from "../../lib/api/attributes.ts";
import { saveAttributeKeys } from "../../lib/db/attribute-keys.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { ATTRIBUTE_LIST_VIEW } from "../../lib/format/attribute-table.ts";
import { readListFilters } from "../../lib/list-filters.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import { resolveQueryScope } from "../../lib/resolve/query-scope.ts";
import { withSlugHint } from "../../lib/resolve/not-found.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { ATTRIBUTE_PERIOD } from "../../lib/explore/attribute-limits.ts";
import type { AttributeListFlags } from "./index.ts";

const COMMAND = "tracker attribute list";

/** `tracker attribute list`: resolve the scope, page to the limit, remember keys and cursor, render. */
export default async function attributeList(
  this: TrackerContext,
  flags: AttributeListFlags,
  target?: string,
): Promise<void> {
  const f = readListFilters(this, flags, ATTRIBUTE_PERIOD);
  const substring = flags.query?.trim() || undefined;
  const scope = await resolveQueryScope(this, target, { command: COMMAND, fresh: flags.fresh });
  const key = cursorKey("attribute-list", `${scope.org}/${scope.projects.join(",")}`, {
    dataset: flags.dataset,
    query: substring,
    ...f.key,
  });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `${flags.dataset} attributes in ${scope.where}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await withSlugHint(this, { org: scope.org }, () =>
    listAttributes(this, {
      org: scope.org,
      dataset: flags.dataset,
      projects: scope.projects,
      ...(substring ? { substring } : {}),
      period: f.win.window,
      environments: f.environments,
      limit: flags.limit,
      ...(cursor ? { cursor } : {}),
    }),
  );
  saveCursor(this, key, page.nextCursor);
  // A whole first listing is what completion offers next time.
  if (!substring && !cursor) {
    saveAttributeKeys(
      this,
      scope.org,
      flags.dataset,
      page.data.map((a) => a.key),
    );
  }
  const run = {
    view: ATTRIBUTE_LIST_VIEW,
    items: page.data,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (page.data.length === 0) {
    const filter = substring ? ` containing ${quoteWord(substring)}` : "";
    writeTip(this, `No ${flags.dataset} attributes${filter} in ${scope.where}${f.envText} in ${f.win.text}.`);
    return;
  }
  await writeListView(this, false, run);
  const n = page.data.length;
  const shown = `${n} ${flags.dataset} attribute${n === 1 ? "" : "s"} of ${scope.where} (${f.win.brief}${f.envText}).`;
  writeListTip(
    this,
    page.nextCursor
      ? `${shown} More: run the same command with -c last.`
      : `${shown} Use a key with: tracker query -F <key>`,
  );
}
