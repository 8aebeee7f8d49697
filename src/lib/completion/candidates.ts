/**
 * Completion candidates for the words typed so far (the last one may be partial): command words,
 * then the command's flags, enum values after an enum flag (long or short), and for positionals
 * the cached organization and project slugs, recent issue IDs, and the release versions and
 * monitor slugs lists have shown (in those commands' first slot). Local only: never a network
 * request. Cached values come from the server, so only well-formed slugs and issue IDs are offered.
 */
import type { Command, RouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { recentIssueRefs } from "../db/issue-refs.ts";
import { cachedTargets } from "../db/project-cache.ts";
import { cachedOrgSlugs } from "../db/regions.ts";
import { globalFlags } from "../flags.ts";
import { SLUG_RE } from "../resolve/url.ts";
import { fieldCandidates } from "./fields.ts";
import { SHELLS } from "./scripts.ts";
import { valueCandidates } from "./values.ts";

type Target = RouteMap<TrackerContext> | Command<TrackerContext>;
interface FlagSpec {
  kind: string;
  values?: readonly string[];
  hidden?: boolean;
}
interface Parameters {
  flags?: Record<string, FlagSpec>;
  aliases?: Record<string, string>;
}

/** The output-shaping flags main.ts reads for every command (they are not declared on the commands). */
const OUTPUT_FLAGS: Record<string, FlagSpec> = {
  jq: { kind: "parsed" },
  fields: { kind: "parsed" },
  format: { kind: "enum", values: ["json", "md"] },
  maxChars: { kind: "parsed" },
};

const SHORT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const isRouteMap = (t: unknown): t is RouteMap<TrackerContext> =>
  typeof t === "object" && t !== null && "getRoutingTargetForInput" in t;

/** Whether a cached `org/project` is two well-formed slugs. */
export function isCompletableTarget(target: string): boolean {
  const parts = target.split("/");
  return parts.length === 2 && parts.every((p) => SLUG_RE.test(p));
}

/** Whether a cached issue reference is `SHORT-ID` or `org/SHORT-ID` with a well-formed org slug. */
export function isCompletableIssueRef(ref: string): boolean {
  const parts = ref.split("/");
  const id = parts[parts.length - 1] ?? "";
  return parts.length <= 2 && SHORT_ID_RE.test(id) && (parts.length === 1 || SLUG_RE.test(parts[0] ?? ""));
}

/** The flag spec a finished word names (`--sort`, `-s`), if it is a flag of the command. */
function flagOf(word: string, params: Parameters, flags: Record<string, FlagSpec>): FlagSpec | undefined {
  if (word.startsWith("--")) return flags[camel(word.slice(2))];
  if (/^-[A-Za-z]$/.test(word)) {
    const name = params.aliases?.[word.slice(1)];
    return name === undefined ? undefined : flags[name];
  }
  return undefined;
}

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
  const params = (target as unknown as { parameters: Parameters }).parameters;
  // The command's own flags first (and winning over an output flag of the same name).
  const flags: Record<string, FlagSpec> = { ...params.flags, ...OUTPUT_FLAGS, ...params.flags };
  const prev = done[done.length - 1];
  const spec = prev === undefined ? undefined : flagOf(prev, params, flags);
  if (spec?.kind === "enum" && spec.values) return spec.values.filter(starts);
  if (spec && spec.kind !== "boolean") {
    const name = prev?.startsWith("--") ? camel(prev.slice(2)) : params.aliases?.[prev?.slice(1) ?? ""];
    return fieldCandidates(ctx, path, done, name, partial) ?? [];
  }
  if (partial.startsWith("-")) {
    // The global flags are hidden from each command's help (shown once under GLOBAL FLAGS) but complete.
    return Object.entries(flags)
      .filter(([name, f]) => !f.hidden || name in globalFlags)
      .map(([name]) => `--${kebab(name)}`)
      .filter(starts);
  }
  if (path[0] === "completion") {
    return done.slice(path.length).some((w) => !w.startsWith("-")) ? [] : SHELLS.filter(starts);
  }
  const takesValue = (w: string) => {
    const f = flagOf(w, params, flags);
    return f !== undefined && f.kind !== "boolean";
  };
  const values = valueCandidates(ctx, path, done.slice(path.length), takesValue);
  if (values !== undefined) return values.filter(starts);
  const issueCommand = path[0] === "issue" && path[1] !== "list";
  const orgs = cachedOrgSlugs(ctx).filter((o) => SLUG_RE.test(o));
  const pool = issueCommand
    ? recentIssueRefs(ctx).filter(isCompletableIssueRef)
    : [
        ...cachedTargets(ctx).filter(isCompletableTarget),
        ...orgs.map((o) => `${o}/`),
        ...(path[0] === "org" ? orgs : []),
      ];
  return [...new Set(pool)].filter(starts);
}
