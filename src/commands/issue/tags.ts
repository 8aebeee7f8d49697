import type { TrackerContext } from "../../context.ts";
import { listIssueTags, listIssueTagValuesPage } from "../../lib/api/issue-tags.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { ApiError, ResolutionError } from "../../lib/errors.ts";
import { ISSUE_TAG_VALUES_VIEW, ISSUE_TAGS_VIEW } from "../../lib/format/issue-tags.ts";
import { oneLine } from "../../lib/format/one-line.ts";
import { fetchLimited } from "../../lib/http/paginate.ts";
import { parseIssueRef } from "../../lib/issue/reference.ts";
import { forgetIssueRef, knownIssueRef, resolveIssue } from "../../lib/issue/resolve.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeDocView, writeListView } from "../../lib/view/render.ts";
import type { IssueTagsFlags } from "./tags-spec.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

const COMMAND = "tracker issue tags";
const isNotFound = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

/** An issue's org and the id its tag endpoints take, and how to name it in tips. */
interface TagTarget {
  org: string;
  id: string;
  label: string;
}

/** `<org>/<SHORT-ID>` as typed: the tag endpoints take a short id in place of the numeric one. */
function orgShortId(ref: string): { org: string; id: string; key?: string } | undefined {
  const parsed = parseIssueRef(ref);
  if (parsed.kind !== "dashed" || !parsed.org) return undefined;
  return { org: parsed.org, id: `${parsed.prefix}-${parsed.suffix}`.toUpperCase() };
}

/**
 * Runs `call` on the issue: at once when its org and numeric id are known without asking (an
 * explicit `<org>/<id>` or `<org>/<SHORT-ID>`, or a reference resolved before), else after
 * resolving it. A cached
 * reference the service no longer confirms is forgotten and resolved afresh.
 */
async function withIssue<T>(
  ctx: TrackerContext,
  ref: string,
  fresh: boolean,
  call: (t: TagTarget) => Promise<T>,
): Promise<{ target: TagTarget; value: T }> {
  const known = fresh ? undefined : (knownIssueRef(ctx, ref) ?? orgShortId(ref));
  if (known) {
    const target = { org: known.org, id: known.id, label: ref.trim() };
    try {
      return { target, value: await call(target) };
    } catch (err) {
      // Not found: a stale cached reference, a wrong id, or (with a key) an unknown key; resolving
      // the issue tells them apart.
      if (!isNotFound(err)) throw err;
      ctx.log.debug(`Issue ${known.org}/${known.id} answered not found; resolving ${ref} again`);
      forgetIssueRef(ctx, known.key);
    }
  }
  const { org, issue } = await resolveIssue(ctx, ref, { command: COMMAND, fresh });
  const target = { org, id: issue.id, label: `${org}/${issue.shortId}` };
  return { target, value: await call(target) };
}

/** `tracker issue tags <issue> [<key>]`: the keys with their top values, or one key's values. */
export default async function issueTags(
  this: TrackerContext,
  flags: IssueTagsFlags,
  ref: string,
  key?: string,
): Promise<void> {
  const tagKey = key?.trim();
  if (!tagKey) {
    const { target, value: tags } = await withIssue(this, ref, flags.fresh, (t) =>
      listIssueTags(this, t.org, t.id),
    );
    if (flags.json) return writeDocView(this, true, ISSUE_TAGS_VIEW, tags);
    if (tags.length === 0) {
      writeTip(this, `Issue ${target.label} has no tags.`);
      return;
    }
    await writeDocView(this, false, ISSUE_TAGS_VIEW, tags);
    writeListTip(this, `All values of one key: ${COMMAND} ${quoteWord(target.label)} <key>`);
    return;
  }
  let saveKey: string | undefined;
  const { target, value: page } = await withIssue(this, ref, flags.fresh, async (t) => {
    saveKey = cursorKey("issue-tags", `${t.org}/${t.id}`, { key: tagKey });
    if (continuesPastEnd(this, saveKey, flags.cursor)) return undefined;
    const start = resolveCursor(this, saveKey, flags.cursor);
    return fetchLimited(flags.limit, start, (size, cursor) =>
      listIssueTagValuesPage(this, t.org, t.id, tagKey, { size, cursor }),
    );
  }).catch((err) => {
    // The issue was resolved (withIssue), so a 404 now means Sentry does not know the key.
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    throw new ResolutionError(
      `Tag '${oneLine(tagKey)}'`,
      `was not found on issue ${ref.trim()}`,
      `List the issue's keys: ${COMMAND} ${quoteWord(ref.trim())}`,
    );
  });
  if (!page) return writePastEnd(this, flags.json, `values of ${tagKey}`);
  if (saveKey) saveCursor(this, saveKey, page.nextCursor);
  const run = {
    view: ISSUE_TAG_VALUES_VIEW,
    items: page.data,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => (saveKey ? saveCursor(this, saveKey, c) : undefined),
  };
  if (flags.json) return writeListView(this, true, run);
  if (page.data.length === 0) {
    writeTip(this, `No values of ${oneLine(tagKey)} on issue ${target.label}.`);
    return;
  }
  await writeListView(this, false, run);
  if (page.nextCursor)
    writeListTip(this, `More values: ${COMMAND} ${quoteWord(target.label)} ${quoteWord(tagKey)} -c last`);
}
