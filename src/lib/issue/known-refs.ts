/** Issue references resolved before (the issue_refs cache): where they point without asking the service. */
import type { TrackerContext } from "../../context.ts";
import { dropIssueRefs, readIssueRef } from "../db/issue-refs.ts";
import { useServiceOfUrl } from "../auth/url-service.ts";
import { lookupAlias } from "../db/aliases.ts";
import { type IssueRef, parseIssueRef } from "./reference.ts";
import { writeTip } from "../output.ts";

/**
 * Where a reference points without asking the service: an explicit `<org>/<numeric id>` (or URL),
 * or what the same reference resolved to before (issue_refs). Undefined when unknown.
 */
export function knownIssueRef(
  ctx: TrackerContext,
  raw: string,
): { org: string; id: string; key?: string } | undefined {
  // A URL of another stored login's server: the run moves there before anything is looked up.
  useServiceOfUrl(ctx, raw);
  let ref: IssueRef;
  try {
    ref = parseIssueRef(raw);
  } catch {
    return undefined;
  }
  if (ref.kind === "numeric") {
    if (ref.org) return { org: ref.org, id: ref.id };
    const key = `#${ref.id}`;
    const hit = readIssueRef(ctx, key);
    return hit ? { ...hit, key } : undefined;
  }
  if (ref.kind !== "dashed") return undefined;
  const full = `${ref.prefix}-${ref.suffix}`.toUpperCase();
  let key = ref.org ? `${ref.org}/${full}` : `*/${full}`;
  if (!ref.org) {
    const alias = lookupAlias(ctx, ref.prefix);
    if (alias) key = `${alias.org}/${alias.project.toUpperCase()}-${ref.suffix.toUpperCase()}`;
  }
  const hit = readIssueRef(ctx, key);
  // A bare short ID can name issues of several organizations: say which one this is, and why.
  if (hit && key.startsWith("*/")) writeTip(ctx, listedOrgNote(full, hit.org));
  return hit ? { ...hit, key } : undefined;
}

/** The stderr line when a bare short ID goes to the organization an earlier listing or lookup gave it. */
export function listedOrgNote(shortId: string, org: string): string {
  return `${shortId} → ${org} (from your last listing or lookup; write <org>/${shortId} for another organization)`;
}

/** Forgets a cached reference the service no longer confirms. */
export function forgetIssueRef(ctx: TrackerContext, key: string | undefined): void {
  if (key) dropIssueRefs(ctx, [key]);
}
