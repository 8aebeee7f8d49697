/**
 * An issue together with something fetched by its numeric id (its latest event, its analysis
 * state). When the organization and numeric id are known without asking (an explicit
 * `<org>/<id>`, or the same reference resolved before), both are requested at once: one round
 * trip. A cached mapping the service no longer confirms is forgotten and the reference resolved
 * afresh (one more round trip); `fresh` skips the cache.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, getIssue } from "../api/issues.ts";
import { ApiError } from "../errors.ts";
import { forgetIssueRef, type IssueResolveOptions, knownIssueRef, resolveIssue } from "./resolve.ts";

const isNotFound = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

/** An issue, its organization, and what `extra` fetched for it. */
export interface IssueWith<T> {
  org: string;
  issue: ApiIssue;
  extra: T;
}

/** Resolves `ref` and fetches `extra(org, id)`, in parallel with the issue when the id is known. */
export async function issueWith<T>(
  ctx: TrackerContext,
  ref: string,
  opts: IssueResolveOptions,
  extra: (org: string, id: string) => Promise<T>,
): Promise<IssueWith<T>> {
  const known = opts.fresh ? undefined : knownIssueRef(ctx, ref);
  if (known) {
    const [issue, more] = await Promise.allSettled([
      getIssue(ctx, known.org, known.id),
      extra(known.org, known.id),
    ]);
    // A cached short id must still name the issue it named (issues move and merge).
    const wanted = known.key?.includes("/") ? known.key.slice(known.key.indexOf("/") + 1) : undefined;
    const moved =
      issue.status === "fulfilled" && wanted !== undefined && issue.value.shortId.toUpperCase() !== wanted;
    if (issue.status === "fulfilled" && more.status === "fulfilled" && !moved) {
      return { org: known.org, issue: issue.value, extra: more.value };
    }
    const failure =
      issue.status === "rejected" ? issue.reason : more.status === "rejected" ? more.reason : undefined;
    if (!known.key || (failure !== undefined && !isNotFound(failure))) throw failure;
    ctx.log.debug(`Cached reference ${known.key} is stale; resolving it again`);
    forgetIssueRef(ctx, known.key);
  }
  const { org, issue } = await resolveIssue(ctx, ref, opts);
  return { org, issue, extra: await extra(org, issue.id) };
}
