/**
 * Completion candidates for the words typed so far (the last one may be partial): command words,
 * then the command's flags, enum values after an enum flag, and for positionals the cached
 * organization and project slugs and recent issue IDs. Local only: never a network request.
 */
import type { Command, RouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { recentIssueRefs } from "../db/issue-refs.ts";
import { cachedTargets } from "../db/project-cache.ts";
import { cachedOrgSlugs } from "../db/regions.ts";
import { globalFlags } from "../flags.ts";

type Target = RouteMap<TrackerContext> | Command<TrackerContext>;
interface FlagSpec {
  kind: string;
  values?: readonly string[];
  hidden?: boolean;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const isRouteMap = (t: unknown): t is RouteMap<TrackerContext> =>
  typeof t === "object" && t !== null && "getRoutingTargetForInput" in t;

/** What to offer after `words` (the last one is being typed). */
export function completionCandidates(
  ctx: TrackerContext,
  root: RouteMap<TrackerContext>,
  words: readonly string[],
): string[] {
  const partial = words[words.length - 1] ?? "";
  const done = words.slice(0, -1);
  let target: Target = root;
  let path: string[] = [];
  for (const w of done) {
    if (!isRouteMap(target) || w.startsWith("-")) break;
    const next = target.getRoutingTargetForInput(w);
    if (!next) break;
    target = next as Target;
    path = [...path, w];
  }
  const starts = (c: string) => c.startsWith(partial);
  if (isRouteMap(target)) {
    return target
      .getAllEntries()
      .filter((e) => !e.hidden)
      .map((e) => e.name.original)
      .filter(starts);
  }
  const params = (target as unknown as { parameters: { flags?: Record<string, FlagSpec> } }).parameters;
  const flags = params.flags ?? {};
  const prev = done[done.length - 1];
  if (prev?.startsWith("--")) {
    const spec = flags[prev.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (spec?.kind === "enum" && spec.values) return spec.values.filter(starts);
    if (spec && spec.kind !== "boolean") return [];
  }
  if (partial.startsWith("-")) {
    // The global flags are hidden from each command's help (shown once under GLOBAL FLAGS) but complete.
    return Object.entries(flags)
      .filter(([name, f]) => !f.hidden || name in globalFlags)
      .map(([name]) => `--${kebab(name)}`)
      .filter(starts);
  }
  const issueCommand = path[0] === "issue" && path[1] !== "list";
  const orgs = cachedOrgSlugs(ctx);
  const pool = issueCommand
    ? recentIssueRefs(ctx)
    : [...cachedTargets(ctx), ...orgs.map((o) => `${o}/`), ...(path[0] === "org" ? orgs : [])];
  return [...new Set(pool)].filter(starts);
}
