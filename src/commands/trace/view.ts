import type { TrackerContext } from "../../context.ts";
import { getTraceItems } from "../../lib/api/traces.ts";
import { RECENT_TRACES_TTL_DAYS, TRACE_VIEW_PERIOD } from "../../lib/trace/windows.ts";
import { findRecentTraces } from "../../lib/db/recent-traces.ts";
import { ApiError, ResolutionError, ValidationError } from "../../lib/errors.ts";
import { TRACE_VIEW } from "../../lib/format/trace-view.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import { docViewDocument, docViewLines } from "../../lib/view/render.ts";
import { resolveOrg } from "../../lib/resolve/target.ts";
import { openWeb, webPath } from "../../lib/web.ts";
import { traceDocument } from "../../lib/trace/document.ts";
import { looksLikeTraceRef, parseTraceRef } from "../../lib/trace/trace-id.ts";
import type { TraceViewFlags } from "./index.ts";
import { SLUG_RE } from "../../lib/resolve/url.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

const COMMAND = "tracker trace view";

/** The org named by the optional target: `<org>`, `<org>/` or `<org>/<project>` (the project is not needed). */
export function orgFromTarget(raw: string): string {
  const text = raw.trim();
  const parts = text.split("/");
  const org = parts[0] ?? "";
  if (parts.length > 2 || !SLUG_RE.test(org)) {
    throw new ValidationError(`Invalid target '${text}'. Use <org>, <org>/ or <org>/<project>.`, "target");
  }
  return org;
}

/** Picks the trace and the org to look in: explicit target, then the recent listing, then the usual org resolution. */
async function resolveTrace(
  ctx: TrackerContext,
  rawId: string,
  target: string | undefined,
  fresh: boolean,
): Promise<{ traceId: string; org: string }> {
  const ref = parseTraceRef(rawId);
  const explicitOrg = target?.trim() ? orgFromTarget(target) : undefined;
  if (ref.kind === "prefix") {
    const matches = findRecentTraces(ctx, ref.prefix, explicitOrg);
    const where = explicitOrg ? ` in ${explicitOrg}` : "";
    if (matches.length === 0) {
      throw new ResolutionError(
        `Trace '${ref.prefix}'`,
        `matches no trace listed recently${where}`,
        `A prefix is looked up among the traces shown by \`tracker trace list\` in the last ${RECENT_TRACES_TTL_DAYS} days. Pass the full 32-character trace ID, or list traces first.`,
        ["tracker trace list <org>/<project>", `${COMMAND} <32-character trace ID> <org>`],
      );
    }
    if (matches.length > 1) {
      throw new ResolutionError(
        `Trace '${ref.prefix}'`,
        `is ambiguous: ${matches.length} recently listed traces${where} start with it`,
        "Pass more characters, or one of the full IDs below.",
        matches.map(
          (m) => `${COMMAND} ${m.trace_id} ${m.org}${m.project ? `  (listed in ${m.org}/${m.project})` : ""}`,
        ),
      );
    }
    const only = matches[0] as (typeof matches)[number];
    ctx.log.debug(`Trace prefix ${ref.prefix} resolved to ${only.trace_id} in ${only.org}`);
    return { traceId: only.trace_id, org: only.org };
  }
  if (explicitOrg) return { traceId: ref.id, org: explicitOrg };
  const orgs = [...new Set(findRecentTraces(ctx, ref.id).map((m) => m.org))];
  if (orgs.length === 1) return { traceId: ref.id, org: orgs[0] as string };
  const resolved = await resolveOrg(ctx, undefined, { command: `${COMMAND} ${ref.id}`, fresh });
  return { traceId: ref.id, org: resolved.org };
}

function notFound(traceId: string, org: string, why: string): ResolutionError {
  return new ResolutionError(`Trace ${traceId}`, `was not found in organization '${org}'`, why, [
    `${COMMAND} ${traceId} <other-org>`,
    `tracker trace list ${quoteWord(`${org}/`)}<project>`,
  ]);
}

/** `tracker trace view`: resolve the id and org, fetch the tree, render it (or emit it as JSON). */
export default async function traceView(
  this: TrackerContext,
  flags: TraceViewFlags,
  first: string,
  second?: string,
): Promise<void> {
  // Accept `trace view <org>/<project> <id>` as well as the documented `trace view <id> [<org>]`.
  const swap = second !== undefined && !looksLikeTraceRef(first) && looksLikeTraceRef(second);
  const [rawId, target] = swap ? [second, first] : [first, second];
  const { traceId, org } = await resolveTrace(this, rawId, target, flags.fresh);
  if (flags.web) return openWeb(this, org, webPath.trace(traceId), flags.json);
  let items: Awaited<ReturnType<typeof getTraceItems>>;
  try {
    items = await getTraceItems(this, org, traceId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw notFound(
        traceId,
        org,
        "The organization does not exist or is not visible to this token (slugs are case-sensitive).",
      );
    }
    throw err;
  }
  if (items.length === 0) {
    throw notFound(
      traceId,
      org,
      `It does not exist there, belongs to another organization, or is older than ${TRACE_VIEW_PERIOD}.`,
    );
  }
  const { roots, errors, summary, json, depth } = traceDocument(traceId, org, items);
  const screen = { traceId, org, roots, errors, summary, doc: json(), tree: true };
  // The document nests as deep as the trace: the depth lets a 20,000-span chain print.
  if (flags.json) return writeJson(this, docViewDocument(this, TRACE_VIEW, screen), { depth });
  await writeList(this, docViewLines(this, TRACE_VIEW, screen));
}
