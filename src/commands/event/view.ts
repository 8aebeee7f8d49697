import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getProjectEvent, lookupEventId } from "../../lib/api/events.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import { cachedOrgSlugs } from "../../lib/db/regions.ts";
import { ResolutionError, ValidationError } from "../../lib/errors.ts";
import { EVENT_VIEW, scrubEvent } from "../../lib/format/event-view.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { openWeb, webPath } from "../../lib/web.ts";
import { parseTarget, resolveOrg, resolveOrgProject } from "../../lib/resolve/target.ts";
import { looksLikeUrl, parseServiceUrl, SLUG_RE } from "../../lib/resolve/url.ts";
import type { EventViewFlags } from "./index.ts";
import { useServiceOfUrl } from "../../lib/auth/url-service.ts";
import { parseHexId } from "../../lib/hex-id.ts";

/** An event id as typed: 32 hex, case and dashes (UUID form) ignored. */
export function parseEventId(raw: string): string {
  return parseHexId(raw, "event", "event");
}

interface EventRef {
  id: string;
  org?: string;
  project?: string;
}

function parseEventRef(raw: string): EventRef {
  const text = raw.trim();
  if (looksLikeUrl(text)) {
    const u = parseServiceUrl(text);
    if (!u?.event) throw new ValidationError(`'${text}' is not an event URL of the service.`, "event");
    return { id: parseEventId(u.event), org: u.org, project: u.project };
  }
  const parts = text.split("/");
  if (parts.length === 3) {
    const [org, project, id] = parts as [string, string, string];
    if (!SLUG_RE.test(org) || !SLUG_RE.test(project))
      throw new ValidationError(
        `Invalid event reference '${text}'. Use <org>/<project>/<event-id>.`,
        "event",
      );
    return { id: parseEventId(id), org, project };
  }
  if (parts.length !== 1)
    throw new ValidationError(
      `Invalid event reference '${text}'. Use <event-id> or <org>/<project>/<event-id>.`,
      "event",
    );
  return { id: parseEventId(text) };
}

/** Whether a bare slug names an organization (the cached list first, else the service's). */
async function isOrganization(ctx: TrackerContext, slug: string): Promise<boolean> {
  if (cachedOrgSlugs(ctx).includes(slug)) return true;
  return (await listOrganizations(ctx)).some((o) => o.slug === slug);
}

/**
 * Where the second argument says the event is: `<org>/` or an organization's bare slug (the event
 * ID is then looked up in that organization), else a project (`<org>/<project>` or a project slug).
 */
async function whereFromArgument(
  ctx: TrackerContext,
  target: string,
): Promise<{ org: string; project?: string }> {
  const t = parseTarget(target);
  if (t.kind === "org-all") return { org: t.org };
  if (t.kind === "project-search" && (await isOrganization(ctx, t.project))) {
    ctx.log.debug(`Target: ${t.project} is an organization; looking the event ID up there`);
    return { org: t.project };
  }
  return resolveOrgProject(ctx, target, { command: "tracker event view" });
}

/** `tracker event view <event> [<org> | <org>/<project>]`. */
export default async function eventView(
  this: TrackerContext,
  flags: EventViewFlags,
  raw: string,
  target?: string,
) {
  useServiceOfUrl(this, raw);
  const ref = parseEventRef(raw);
  let org = ref.org;
  let project = ref.project;
  if (!org && target !== undefined) ({ org, project } = await whereFromArgument(this, target));
  if (!org) {
    try {
      ({ org, project } = await resolveOrgProject(this, undefined, { command: "tracker event view" }));
    } catch {
      org = (await resolveOrg(this, undefined, { command: "tracker event view" })).org;
    }
  }
  let event: ApiEvent;
  try {
    if (project) event = await getProjectEvent(this, org, project, ref.id);
    else {
      const found = await lookupEventId(this, org, ref.id);
      project = found.projectSlug;
      event = found.event;
    }
  } catch (err) {
    if ((err as { status?: number }).status === 404) {
      throw new ResolutionError(
        `Event ${ref.id}`,
        `was not found in ${project ? `${org}/${project}` : org}`,
        "Events are kept for the plan's retention period; check the ID, or name the project: tracker event view <org>/<project>/<event-id>.",
      );
    }
    throw err;
  }
  if (flags.web) {
    const issueId = event.groupID;
    const path = issueId ? webPath.event(issueId, ref.id) : webPath.projectEvent(project ?? "", ref.id);
    return openWeb(this, org, path, flags.json);
  }
  await writeDocView(this, flags.json, EVENT_VIEW, { event: scrubEvent(event), org, project });
}
