/**
 * Acting on issues: which issues (references, `-` for stdin, or every match of a query in a
 * target), a preview and confirmation for query-wide changes, the update requests (grouped by
 * organization, and by project when release data is sent; at most 100 ids each), and the report.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, type Issue, searchIssuesPage, toIssue } from "../api/issues.ts";
import { type IssueUpdate, type UpdateResult, updateIssues, BULK_MAX } from "../api/issue-changes.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { CliError, ValidationError } from "../errors.ts";
import { exitCodeFor } from "../error-render.ts";
import { fetchLimited } from "../http/paginate.ts";
import { getProjectId } from "../resolve/project-id.ts";
import { parseTarget, resolveOrg, resolveOrgProject } from "../resolve/target.ts";
import { resolveIssue } from "./resolve.ts";

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

/** Options of a query-wide change. */
export interface QueryScope {
  target?: string;
  query: string;
  period: string;
  limit: number;
  command: string;
}

/** Every issue a query matches in a target (`<org>/<project>`, `<org>/`, `<project>` or the context). */
export async function matchingIssues(ctx: TrackerContext, s: QueryScope): Promise<Target[]> {
  const parsed = parseTarget(s.target);
  let org: string;
  let projects: string[];
  if (parsed.kind === "org-all") {
    org = parsed.org;
    projects = ["-1"];
  } else {
    const opts = { command: s.command };
    try {
      const t = await resolveOrgProject(ctx, s.target, opts);
      org = t.org;
      projects = [await getProjectId(ctx, t.org, t.project)];
    } catch (err) {
      // An org-only context (TRACKER_ORG, `defaults set acme`) means the whole organization.
      if (parsed.kind !== "none") throw err;
      org = (await resolveOrg(ctx, undefined, opts)).org;
      projects = ["-1"];
    }
  }
  const page = await fetchLimited(s.limit, undefined, (size, cursor) =>
    searchIssuesPage(ctx, {
      org,
      projects,
      query: s.query,
      sort: "date",
      period: s.period,
      limit: size,
      cursor,
    }),
  );
  return page.data.map((issue) => ({ org, issue }));
}

/** Shows what a query matched (stderr) and asks before changing them; false when declined. */
export async function confirmQueryChange(
  ctx: TrackerContext,
  targets: readonly Target[],
  what: string,
  opts: { yes: boolean; dryRun: boolean; json: boolean; query: string },
): Promise<boolean> {
  const shown = targets.slice(0, 10);
  if (!opts.json || !opts.yes) {
    ctx.stderr.write(`${targets.length} issue${targets.length === 1 ? "" : "s"} match '${opts.query}':\n`);
    for (const t of shown) ctx.stderr.write(`  ${t.issue.shortId}  ${t.issue.title}\n`);
    if (targets.length > shown.length) ctx.stderr.write(`  … and ${targets.length - shown.length} more\n`);
  }
  if (opts.dryRun || opts.yes || targets.length === 0) return true;
  if (!(ctx.isStdinTTY && ctx.isStderrTTY) || opts.json) {
    throw new ValidationError(
      `Refusing to ${what} ${targets.length} issues matched by a query without confirmation: add --yes (or --dry-run to preview).`,
      "yes",
    );
  }
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({
    message: `${what[0]?.toUpperCase()}${what.slice(1)} ${targets.length} issues?`,
  });
  return !isCancel(answer) && answer === true;
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

/** Sends the update (unless dry-run) and reports per issue. */
export async function applyChange(
  ctx: TrackerContext,
  targets: readonly Target[],
  body: IssueUpdate,
  dryRun: boolean,
): Promise<ChangeReport> {
  const report: ChangeReport = { changed: [], failed: [], dryRun };
  if (dryRun) {
    report.changed = targets.map((t) => after(t, body, null));
    return report;
  }
  const perProject =
    body.statusDetails !== undefined &&
    ("inRelease" in body.statusDetails || "inNextRelease" in body.statusDetails);
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
      for (const t of batch) report.failed.push(failureOf(`${org}/${t.issue.shortId}`, err));
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
  const { writeJson, writeLines, writeListTip } = await import("../output.ts");
  let targets: Target[];
  let failed: ChangeFailure[] = [];
  if (flags.query !== undefined) {
    if (args.length > 1) {
      throw new ValidationError(
        `With --query, ${spec.command} takes one target (<org>/<project> or <org>/), not issues.`,
        "query",
      );
    }
    targets = await matchingIssues(ctx, {
      target: args[0],
      query: flags.query,
      period: flags.period,
      limit: flags.limit,
      command: spec.command,
    });
    const go = await confirmQueryChange(ctx, targets, spec.verb, { ...flags, query: flags.query });
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
  if (flags.json) writeJson(ctx, report);
  else {
    const lead = flags.dryRun ? "would be " : "";
    for (const f of report.failed) ctx.stderr.write(`${f.issue} not changed: ${f.error.message}\n`);
    // One line per changed issue is the data (stdout); the count is for a person watching, and
    // only says something new when several issues were involved.
    writeLines(
      ctx,
      report.changed.map((i) => `${i.shortId} ${lead}${spec.done}`),
    );
    if (report.changed.length + report.failed.length > 1) {
      writeListTip(
        ctx,
        `${flags.dryRun ? "Dry run: " : ""}${report.changed.length} issue${report.changed.length === 1 ? "" : "s"} ${flags.dryRun ? "would be " : ""}${spec.done}${report.failed.length ? `, ${report.failed.length} failed` : ""}.`,
      );
    }
  }
  const err = reportFailure(report);
  if (err) throw err;
}
