/**
 * Query-wide changes: every issue a search matches in a target (up to `-n`), what is said when
 * more match than are changed, and the preview and confirmation before the change.
 */
import type { TrackerContext } from "../../context.ts";
import { searchIssuesPage } from "../api/issues.ts";
import { PromptCancelled, ValidationError } from "../errors.ts";
import { fetchLimited } from "../http/paginate.ts";
import { getProjectId } from "../resolve/project-id.ts";
import { parseTarget, resolveOrg, resolveOrgProject } from "../resolve/target.ts";
import type { Target } from "./change.ts";
import { QUERY_CHANGE_MAX } from "./change-limit.ts";
import { canPrompt } from "../automation.ts";
import { resolveWindow } from "../time-window.ts";

/** Options of a query-wide change. */
export interface QueryScope {
  target?: string;
  query: string;
  period: string;
  limit: number;
  command: string;
}

/** The issues to change and how many match in all. */
export interface QueryMatches {
  targets: Target[];
  /** Every match (`X-Hits`) when the server says; undefined when unknown. */
  total?: number;
  /** More issues match than `targets` holds (the limit cut the list short). */
  more: boolean;
}

/** The organization and project ids a target names (`<org>/` or an org-only context: every project). */
async function searchScope(ctx: TrackerContext, s: QueryScope): Promise<{ org: string; projects: string[] }> {
  const parsed = parseTarget(s.target);
  if (parsed.kind === "org-all") return { org: parsed.org, projects: ["-1"] };
  const opts = { command: s.command };
  try {
    const t = await resolveOrgProject(ctx, s.target, opts);
    return { org: t.org, projects: [await getProjectId(ctx, t.org, t.project)] };
  } catch (err) {
    // An org-only context (TRACKER_ORG, `defaults set acme`) means the whole organization.
    if (parsed.kind !== "none") throw err;
    return { org: (await resolveOrg(ctx, undefined, opts)).org, projects: ["-1"] };
  }
}

/** Every issue a query matches in a target (`<org>/<project>`, `<org>/`, `<project>` or the context), up to the limit. */
export async function matchingIssues(ctx: TrackerContext, s: QueryScope): Promise<QueryMatches> {
  const { org, projects } = await searchScope(ctx, s);
  let hits: number | undefined;
  const { window } = resolveWindow({ period: s.period }, s.period, ctx.now());
  const page = await fetchLimited(s.limit, undefined, async (size, cursor) => {
    const p = await searchIssuesPage(ctx, {
      org,
      projects,
      query: s.query,
      sort: "date",
      // An absolute --period is read once here, against now (time-window.ts).
      period: window,
      limit: size,
      cursor,
    });
    hits ??= p.hits;
    return p;
  });
  const targets = page.data.map((issue) => ({ org, issue }));
  const total = hits !== undefined && hits >= targets.length ? hits : undefined;
  const more = total !== undefined ? total > targets.length : page.nextCursor !== undefined;
  return { targets, ...(total !== undefined ? { total } : {}), more };
}

const plural = (n: number) => `${n.toLocaleString("en-US")} issue${n === 1 ? "" : "s"}`;

/**
 * The line saying the limit cut the matches short, e.g. "147 issues match; changing the first 100
 * (raise -n, at most 1,000)"; undefined when every match is changed.
 */
export function truncationNotice(m: QueryMatches, dryRun: boolean): string | undefined {
  if (!m.more) return undefined;
  const n = m.targets.length;
  const matched = m.total !== undefined ? `${plural(m.total)} match` : `more than ${plural(n)} match`;
  const doing = `${dryRun ? "would change" : "changing"} the first ${n.toLocaleString("en-US")}`;
  const max = QUERY_CHANGE_MAX.toLocaleString("en-US");
  const advice =
    n < QUERY_CHANGE_MAX
      ? `raise -n, at most ${max}`
      : `at most ${max} at once: narrow --query and run again`;
  return `${matched}; ${doing} (${advice})`;
}

/** The confirmation question: the exact number changed, and of how many when more match. */
export function confirmQuestion(verb: string, m: QueryMatches): string {
  const n = m.targets.length;
  const Verb = `${verb[0]?.toUpperCase()}${verb.slice(1)}`;
  if (!m.more) return `${Verb} ${plural(n)}?`;
  const of = m.total !== undefined ? `of the ${m.total.toLocaleString("en-US")}` : "of more than";
  return m.total !== undefined
    ? `${Verb} the first ${n.toLocaleString("en-US")} ${of} matching issues?`
    : `${Verb} the first ${plural(n)} (${of} ${n.toLocaleString("en-US")} matching)?`;
}

/** Writes what the query matched to stderr: the truncation notice (always) and a preview. */
function showMatches(ctx: TrackerContext, m: QueryMatches, opts: ConfirmOptions): void {
  const notice = truncationNotice(m, opts.dryRun);
  // More matches than changed is never left unsaid, not even with --json --yes.
  if (notice) ctx.stderr.write(`${notice}\n`);
  if (opts.json && opts.yes) return;
  const targets = m.targets;
  const shown = targets.slice(0, 10);
  if (!notice) ctx.stderr.write(`${plural(targets.length)} match '${opts.query}':\n`);
  for (const t of shown) ctx.stderr.write(`  ${t.issue.shortId}  ${t.issue.title}\n`);
  if (targets.length > shown.length) ctx.stderr.write(`  … and ${targets.length - shown.length} more\n`);
}

/** Flags that decide the preview and the confirmation. */
export interface ConfirmOptions {
  yes: boolean;
  dryRun: boolean;
  json: boolean;
  query: string;
}

/** Shows what a query matched (stderr) and asks before changing them; false when declined. */
export async function confirmQueryChange(
  ctx: TrackerContext,
  m: QueryMatches,
  what: string,
  opts: ConfirmOptions,
): Promise<boolean> {
  showMatches(ctx, m, opts);
  const n = m.targets.length;
  if (opts.dryRun || opts.yes || n === 0) return true;
  if (!canPrompt(ctx) || opts.json) {
    throw new ValidationError(
      `Refusing to ${what} ${n} issues matched by a query without confirmation: add --yes (or --dry-run to preview).`,
      "yes",
    );
  }
  const { confirm, isCancel } = await import("@clack/prompts");
  // A destructive question defaults to No; Ctrl-C is exit 130 with nothing changed.
  const answer = await confirm({ message: confirmQuestion(what, m), initialValue: false });
  if (isCancel(answer)) throw new PromptCancelled();
  return answer === true;
}
