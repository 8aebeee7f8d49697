/** How far a short ID without an organization is looked for: a bounded sample of the organizations. */
import type { TrackerContext } from "../../context.ts";
import { MAX_ORGS_SEARCHED, sampleOrganizations } from "../api/organizations.ts";
import type { IssueResolveOptions } from "./resolve.ts";

/** The organizations searched beyond the context's, and the hint to give when that was not all. */
export interface Searched {
  orgs: string[];
  /** Set when organizations were left out: says how many were searched and how to name one. */
  cappedHint?: string;
}

/**
 * The organizations to search for `shortId` beyond `context`: the first MAX_ORGS_SEARCHED the
 * service lists (one page per region), with a hint when the service has more.
 */
export async function searchBeyond(
  ctx: TrackerContext,
  context: readonly string[],
  shortId: string,
  opts: IssueResolveOptions,
): Promise<Searched> {
  const sample = await sampleOrganizations(ctx, { fresh: opts.fresh });
  const rest = sample.slugs.filter((o) => !context.includes(o));
  const orgs = rest.slice(0, MAX_ORGS_SEARCHED);
  const known = new Set([...context, ...sample.slugs]).size;
  const total = Math.max(sample.total, known);
  if (orgs.length === rest.length && sample.exact && total <= known) return { orgs };
  const searched = context.length + orgs.length;
  const of = `${sample.exact ? "" : "more than "}${total.toLocaleString("en-US")}`;
  ctx.log.debug(`Searching ${searched} of ${of} organizations for ${shortId}`);
  return {
    orgs,
    cappedHint: `Searched ${searched.toLocaleString("en-US")} of ${of} organizations; name the organization: \`${opts.command} <org>/${shortId}\`.`,
  };
}
