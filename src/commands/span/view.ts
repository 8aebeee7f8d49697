import type { TrackerContext } from "../../context.ts";
import { queryEvents } from "../../lib/api/explore.ts";
import { getSpanItem } from "../../lib/api/trace-items.ts";
import { ResolutionError, ValidationError } from "../../lib/errors.ts";
import { SPAN_VIEW_PERIOD } from "../../lib/explore/limits.ts";
import { SPAN_VIEW } from "../../lib/format/span-view.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { getProjectId } from "../../lib/resolve/project-id.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import type { SpanViewFlags } from "./index.ts";

/** The trace of a span, found in the spans dataset (one request). */
async function traceOf(ctx: TrackerContext, org: string, project: string, spanId: string, fresh: boolean) {
  const projectId = await getProjectId(ctx, org, project, fresh);
  const page = await queryEvents(ctx, {
    org,
    dataset: "spans",
    fields: ["id", "trace", "timestamp"],
    projects: [projectId],
    query: `id:${spanId}`,
    period: SPAN_VIEW_PERIOD,
    limit: 1,
  });
  const trace = page.data[0]?.trace;
  if (typeof trace !== "string" || trace === "") {
    throw new ResolutionError(
      "Span",
      `${spanId} was not found in ${org}/${project} in the last ${SPAN_VIEW_PERIOD}`,
      `Pass its trace: tracker span view ${spanId} ${quoteWord(`${org}/${project}`)} --trace <trace-id>`,
    );
  }
  return trace;
}

/** `tracker span view <span-id> [<org>/<project>]`: every attribute of one span. */
export default async function spanView(
  this: TrackerContext,
  flags: SpanViewFlags,
  rawId: string,
  target?: string,
) {
  const spanId = rawId.trim().toLowerCase();
  if (!/^[0-9a-f]{16}$/.test(spanId))
    throw new ValidationError(`'${rawId}' is not a span ID (16 hex characters).`, "span-id");
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker span view <span-id>",
    fresh: flags.fresh,
  });
  const traceId = flags.trace ?? (await traceOf(this, org, project, spanId, flags.fresh));
  const item = await getSpanItem(this, { org, project, spanId, traceId });
  const attributes = [...item.attributes].sort((a, b) => a.name.localeCompare(b.name));
  const doc = { spanId, traceId, org, project, timestamp: item.timestamp ?? null, attributes };
  await writeDocView(this, flags.json, SPAN_VIEW, doc);
}
