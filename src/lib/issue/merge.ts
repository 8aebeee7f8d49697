/**
 * `issue merge` (API.md §22.5): which issues (the preferred parent first, then the others), the
 * checks Sentry would fail on (one organization, one project, at least two issues), the preview
 * and confirmation, and the merge, reporting the parent Sentry chose (the issue with the most
 * events, whatever was preferred).
 */
import type { TrackerContext } from "../../context.ts";
import type { ApiIssue } from "../api/issues.ts";
import { mergeIssues, mergeRequest } from "../api/issue-merge.ts";
import { canPrompt } from "../automation.ts";
import { PromptCancelled, ValidationError } from "../errors.ts";
import { oneLine } from "../format/one-line.ts";
import { readRefs, resolveRefs, type Target } from "./change.ts";

/** What a merge did (or would do). */
export interface MergeReport {
  /** The issue asked to stay (`--into`). */
  into: string;
  /** The issue Sentry kept; null on a dry run. */
  parent: { id: string; shortId: string } | null;
  /** The issues merged into the parent. */
  children: { id: string; shortId: string }[];
  dryRun: false;
}

/** Resolves `--into` and the issues to merge; throws on anything Sentry would refuse. */
export async function mergeTargets(
  ctx: TrackerContext,
  args: readonly string[],
  into: string,
): Promise<{ org: string; targets: Target[] }> {
  const refs = [into, ...(await readRefs(ctx, args))];
  const { found, failed } = await resolveRefs(ctx, refs, "tracker issue merge");
  const first = failed[0];
  if (first) throw new ValidationError(`Cannot merge: ${first.issue}: ${first.error.message}`, "issue");
  if (found.length < 2)
    throw new ValidationError(
      "Merging needs at least two different issues (the others and --into).",
      "issue",
    );
  const orgs = new Set(found.map((t) => t.org));
  const projects = new Set(found.map((t) => `${t.org}/${t.issue.project.slug}`));
  if (orgs.size > 1 || projects.size > 1) {
    throw new ValidationError(
      `Issues of different projects cannot be merged (${[...projects].join(", ")}).`,
      "issue",
    );
  }
  return { org: (found[0] as Target).org, targets: found };
}

/** The preview (stderr) and the question; false when declined. Without a terminal --yes is required. */
export async function confirmMerge(
  ctx: TrackerContext,
  targets: readonly Target[],
  flags: { yes: boolean; json: boolean },
): Promise<boolean> {
  if (flags.yes) return true;
  if (!canPrompt(ctx) || flags.json) {
    throw new ValidationError(
      "Refusing to merge without confirmation: add --yes (or --dry-run to see the request).",
      "yes",
    );
  }
  const [into, ...others] = targets as [Target, ...Target[]];
  ctx.stderr.write(`Merge into ${into.issue.shortId} (${oneLine(into.issue.title)}):\n`);
  for (const t of others) ctx.stderr.write(`  ${t.issue.shortId}  ${oneLine(t.issue.title)}\n`);
  ctx.stderr.write("Sentry keeps the issue with the most events as the parent.\n");
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message: `Merge ${targets.length} issues?`, initialValue: false });
  if (isCancel(answer)) throw new PromptCancelled();
  return answer === true;
}

/** The planned request of a merge (the `--dry-run` output). */
export function plannedMerge(org: string, targets: readonly Target[]) {
  return mergeRequest(
    org,
    targets.map((t) => t.issue.id),
  );
}

/** Sends the merge and reports the parent Sentry chose. */
export async function sendMerge(
  ctx: TrackerContext,
  org: string,
  targets: readonly Target[],
): Promise<MergeReport> {
  const byId = new Map<string, ApiIssue>(targets.map((t) => [t.issue.id, t.issue]));
  const ref = (id: string) => ({ id, shortId: byId.get(id)?.shortId ?? id });
  const result = await mergeIssues(
    ctx,
    org,
    targets.map((t) => t.issue.id),
  );
  const into = (targets[0] as Target).issue.shortId;
  if (!result) return { into, parent: null, children: [], dryRun: false };
  return { into, parent: ref(result.parent), children: result.children.map(ref), dryRun: false };
}
