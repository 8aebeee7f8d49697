import type { TrackerContext } from "../../context.ts";
import { MAX_ORGS_SEARCHED, sampleOrganizations } from "../../lib/api/organizations.ts";
import { cachedOrgSlugs } from "../../lib/db/regions.ts";
import { readStatusTime, writeStatusTimes } from "../../lib/db/status-times.ts";
import { ValidationError } from "../../lib/errors.ts";
import { STATUS_VIEW } from "../../lib/format/status.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { writeJson, writeTip } from "../../lib/output.ts";
import { SLUG_RE } from "../../lib/resolve/url.ts";
import { fetchPlates, sinceFor } from "../../lib/status/plate.ts";
import type { StatusFlags } from "./index.ts";
import { canPrompt } from "../../lib/automation.ts";

/** A person at a terminal: stdout and stdin terminals, not agent or CI mode. */
function isInteractive(ctx: TrackerContext): boolean {
  return ctx.isStdoutTTY && canPrompt(ctx);
}

/**
 * The organizations to look at: the named ones, else the first MAX_ORGS_SEARCHED of the cached
 * list (no request), else of the service's first page per region. A token with thousands of
 * organizations would otherwise cost three searches each; `capped` says how many there were.
 */
async function orgsFor(
  ctx: TrackerContext,
  named: readonly string[],
  fresh: boolean,
): Promise<{ orgs: string[]; capped?: string }> {
  for (const org of named) {
    if (!SLUG_RE.test(org)) throw new ValidationError(`'${org}' is not an organization slug.`, "org");
  }
  if (named.length > 0) return { orgs: [...new Set(named)] };
  const cached = fresh ? [] : cachedOrgSlugs(ctx);
  const sample =
    cached.length > 0
      ? { slugs: cached, total: cached.length, exact: true }
      : await sampleOrganizations(ctx, { fresh });
  const orgs = sample.slugs.slice(0, MAX_ORGS_SEARCHED);
  const total = Math.max(sample.total, sample.slugs.length);
  if (orgs.length === total && sample.exact) return { orgs };
  const of = `${sample.exact ? "" : "more than "}${total.toLocaleString("en-US")}`;
  return {
    orgs,
    capped: `Showing ${orgs.length} of ${of} organizations; name the ones you want: tracker status <org>…`,
  };
}

/** `tracker status`: assigned, regressed and new issues of each organization, one round trip for all. */
export default async function status(this: TrackerContext, flags: StatusFlags, ...named: string[]) {
  // The window of the next run starts when this one asked, so nothing first seen meanwhile is missed.
  const started = this.now();
  const { orgs, capped } = await orgsFor(this, named, flags.fresh);
  if (capped) writeTip(this, capped);
  if (orgs.length === 0) {
    if (flags.json) return writeJson(this, { data: [] });
    return writeTip(this, "You belong to no organization.");
  }
  const { plates, errors } = await fetchPlates(this, orgs, {
    limit: flags.limit,
    sinceOf: (org) => sinceFor(flags.since ?? readStatusTime(this, org), started),
  });
  // Reading is not seeing: only a person's own run (or --mark-seen) moves the "new since" marker.
  const seen = flags.markSeen || (flags.since === undefined && !flags.json && isInteractive(this));
  if (seen)
    writeStatusTimes(
      this,
      plates.map((p) => p.org),
      started,
    );
  for (const e of errors) this.log.warn(`Could not read the status of ${e.org}: ${e.message}`);
  await writeDocView(this, flags.json, STATUS_VIEW, { plates, errors });
}
