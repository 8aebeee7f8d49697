/**
 * Acting on issues: which issues (references, `-` for stdin, or every match of a query in a
 * target), a preview and confirmation for query-wide changes, the update requests (grouped by
 * organization, and by project when release data is sent; at most 100 ids each), and the report.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, type Issue, toIssue } from "../api/issues.ts";
import {
  type IssueUpdate,
  plannedIssueUpdate,
  type UpdateResult,
  updateIssues,
  BULK_MAX,
} from "../api/issue-changes.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { ApiError, CliError, ResolutionError, ValidationError } from "../errors.ts";
import { quoteWord } from "../shell-quote.ts";
import { exitCodeFor } from "../error-render.ts";
import { confirmQueryChange, matchingIssues } from "./change-query.ts";
import { resolveIssue } from "./resolve.ts";
import type { PlannedRequest } from "../dry-run.ts";

/** The error behind each failure (rethrown as is when a single issue failed). */
const ORIGINAL = new WeakMap<object, unknown>();

/** An issue to change and its organization. */
export interface Target {
  org: string;
  issue: ApiIssue;
}

/** One issue that could not be found or changed. */
export interface ChangeFailure {
  issue: string;
  error: { class: string; code: number; message: string };
}

/** What a changing command did (or, with --dry-run, would do). */
export interface ChangeReport {
  changed: (Issue & { assignedTo?: unknown; statusDetails?: unknown })[];
  failed: ChangeFailure[];
  dryRun: boolean;
  /** With --dry-run: the requests that would be sent (lib/dry-run.ts). */
  requests?: PlannedRequest[];
}

function failureOf(issue: string, err: unknown): ChangeFailure {
  const cls = err instanceof CliError ? err.name : "Error";
  const f = {
    issue,
    error: { class: cls, code: exitCodeFor(err), message: err instanceof Error ? err.message : String(err) },
  };
  ORIGINAL.set(f, err);
  return f;
}

/** The references of a command line: its arguments, or stdin lines when the only one is `-`. */
export async function readRefs(ctx: TrackerContext, args: readonly string[]): Promise<string[]> {
  if (args.length === 1 && args[0] === "-") {
    const refs = (await ctx.readStdin())
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    if (refs.length === 0) throw new ValidationError("No issue references on stdin (one per line).", "issue");
    return refs;
  }
  if (args.includes("-"))
    throw new ValidationError("'-' (read issues from stdin) must be the only issue argument.", "issue");
  return [...args];
}

/** Resolves references in parallel; what cannot be resolved is reported, not fatal. */
export async function resolveRefs(
  ctx: TrackerContext,
  refs: readonly string[],
  command: string,
): Promise<{ found: Target[]; failed: ChangeFailure[] }> {
  const unique = [...new Set(refs)];
  const results = await settleLimit(unique, FAN_OUT_CONCURRENCY, (ref) =>
    resolveIssue(ctx, ref, { command }),
  );
  const found: Target[] = [];
  const failed: ChangeFailure[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") {
      if (!found.some((f) => f.issue.id === r.value.issue.id)) found.push(r.value);
    } else failed.push(failureOf(unique[i] as string, r.reason));
  });
  return { found, failed };
}

/** Groups targets for update requests: by organization, and by project when release data is sent. */
function batches(targets: readonly Target[], perProject: boolean): Target[][] {
  const groups = new Map<string, Target[]>();
  for (const t of targets) {
    const key = perProject ? `${t.org}\u0000${t.issue.project.slug}` : t.org;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const out: Target[][] = [];
  for (const g of groups.values())
    for (let i = 0; i < g.length; i += BULK_MAX) out.push(g.slice(i, i + BULK_MAX));
  return out;
}

/** The issue as it is (or would be) after the change. */
function after(t: Target, body: IssueUpdate, result: UpdateResult | null): ChangeReport["changed"][number] {
  const issue: ChangeReport["changed"][number] = toIssue(t.issue);
  const status = result?.status ?? body.status;
  if (status) issue.status = status === "resolvedInNextRelease" ? "resolved" : status;
  if (result?.statusDetails ?? body.statusDetails)
    issue.statusDetails = result?.statusDetails ?? body.statusDetails;
  if (result && "assignedTo" in result) issue.assignedTo = result.assignedTo ?? null;
  else if ("assignedTo" in body) issue.assignedTo = body.assignedTo ?? null;
  return issue;
}

/**
 * The service's 400 for `--in <version>` of a release it does not know, as the resolution error
 * it is (exit 23, naming the release and where to look), instead of a bare "status 400".
 */
function unknownRelease(err: unknown, org: string, body: IssueUpdate): ResolutionError | undefined {
  const version =
    body.statusDetails && "inRelease" in body.statusDetails ? body.statusDetails.inRelease : undefined;
  if (typeof version !== "string" || !(err instanceof ApiError) || err.status !== 400) return undefined;
  if (!/inRelease/.test(err.detail ?? "")) return undefined;
  return new ResolutionError(
    `Release ${version}`,
    `was not found in ${org}`,
    `List the releases: tracker release list ${quoteWord(`${org}/`)}; or resolve in the next release: --in-next-release.`,
  );
}

/** Sends the update (unless dry-run) and reports per issue. */
export async function applyChange(
  ctx: TrackerContext,
  targets: readonly Target[],
  body: IssueUpdate,
  dryRun: boolean,
): Promise<ChangeReport> {
  const report: ChangeReport = { changed: [], failed: [], dryRun };
  const perProject =
    body.statusDetails !== undefined &&
    ("inRelease" in body.statusDetails || "inNextRelease" in body.statusDetails);
  if (dryRun) {
    report.changed = targets.map((t) => after(t, body, null));
    report.requests = batches(targets, perProject).map((b) =>
      plannedIssueUpdate(
        (b[0] as Target).org,
        b.map((t) => t.issue.id),
        body,
      ),
    );
    return report;
  }
  for (const batch of batches(targets, perProject)) {
    const org = (batch[0] as Target).org;
    try {
      const result = await updateIssues(
        ctx,
        org,
        batch.map((t) => t.issue.id),
        body,
      );
      for (const t of batch) report.changed.push(after(t, body, result));
    } catch (err) {
      const named = unknownRelease(err, org, body);
      for (const t of batch) report.failed.push(failureOf(`${org}/${t.issue.shortId}`, named ?? err));
    }
  }
  return report;
}

/**
 * The error a report ends with: none when everything changed; the first failure's class and code
 * otherwise (partial failures still print what changed first).
 */
export function reportFailure(report: ChangeReport): CliError | undefined {
  const first = report.failed[0];
  if (!first) return undefined;
  const total = report.changed.length + report.failed.length;
  return new CliError(
    `${report.failed.length} of ${total} issue${total === 1 ? "" : "s"} could not be changed: ${first.issue}: ${first.error.message}`,
    first.error.code,
  );
}

/** Flags every changing command shares. */
export interface ChangeFlags {
  readonly json: boolean;
  readonly dryRun: boolean;
  readonly yes: boolean;
  readonly query?: string;
  readonly period: string;
  readonly limit: number;
}

/** How a changing command describes itself: the verb for prompts and the per-issue line. */
export interface ChangeSpec {
  command: string;
  /** e.g. "resolve" (prompts: "Resolve 12 issues?"). */
  verb: string;
  /** e.g. "resolved in 1.2.3" (lines: "WEB-4Y resolved in 1.2.3"). */
  done: string;
}

/**
 * Runs a changing command end to end: the issues (references or a query with its target), the
 * preview and confirmation, the update (or the dry run), the report, and the exit code.
 */
export async function runChange(
  ctx: TrackerContext,
  spec: ChangeSpec,
  flags: ChangeFlags,
  args: readonly string[],
  body: IssueUpdate | ((targets: Target[]) => Promise<IssueUpdate>),
): Promise<void> {
  const { writeListTip } = await import("../output.ts");
  const { writeResult } = await import("../view/write.ts");
  let targets: Target[];
  let failed: ChangeFailure[] = [];
  if (flags.query !== undefined) {
    if (args.length > 1) {
      throw new ValidationError(
        `With --query, ${spec.command} takes one target (<org>/<project> or <org>/), not issues.`,
        "query",
      );
    }
    const matches = await matchingIssues(ctx, {
      target: args[0],
      query: flags.query,
      period: flags.period,
      limit: flags.limit,
      command: spec.command,
    });
    targets = matches.targets;
    const go = await confirmQueryChange(ctx, matches, spec.verb, { ...flags, query: flags.query });
    if (!go) {
      ctx.stderr.write("Nothing was changed.\n");
      return;
    }
  } else {
    if (args.length === 0)
      throw new ValidationError(
        `${spec.command} needs at least one issue (or --query with a target).`,
        "issue",
      );
    const refs = await readRefs(ctx, args);
    const r = await resolveRefs(ctx, refs, spec.command);
    targets = r.found;
    failed = r.failed;
  }
  const update = typeof body === "function" ? await body(targets) : body;
  const report = await applyChange(ctx, targets, update, flags.dryRun);
  report.failed.unshift(...failed);
  const only = report.failed[0];
  if (report.changed.length === 0 && only) {
    const original = ORIGINAL.get(only);
    throw original instanceof CliError && report.failed.length === 1 ? original : reportFailure(report);
  }
  // The dry run's document is the report (with its requests), not lib/dry-run.ts's: documented
  // before that contract, it stays; so the dry run is said like the change it would make.
  const lead = flags.dryRun ? "would be " : "";
  if (!flags.json)
    for (const f of report.failed) ctx.stderr.write(`${f.issue} not changed: ${f.error.message}\n`);
  // One line per changed issue is the data (stdout); the count is for a person watching, and
  // only says something new when several issues were involved.
  writeResult(
    ctx,
    flags.json,
    report,
    report.changed.map((i) => `${i.shortId} ${lead}${spec.done}`),
  );
  if (!flags.json && report.changed.length + report.failed.length > 1) {
    writeListTip(
      ctx,
      `${flags.dryRun ? "Dry run: " : ""}${report.changed.length} issue${report.changed.length === 1 ? "" : "s"} ${lead}${spec.done}${report.failed.length ? `, ${report.failed.length} failed` : ""}.`,
    );
  }
  const err = reportFailure(report);
  if (err) throw err;
}
