/** The latest event of an issue (API.md 5.5) and the parts `issue view` shows. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import type { FetchedPage } from "../http/paginate.ts";
import { type Window, windowQuery } from "../time-window.ts";

const Frame = v.looseObject({
  filename: v.optional(v.nullable(v.string())),
  absPath: v.optional(v.nullable(v.string())),
  module: v.optional(v.nullable(v.string())),
  function: v.optional(v.nullable(v.string())),
  lineNo: v.optional(v.nullable(v.number())),
  colNo: v.optional(v.nullable(v.number())),
  inApp: v.optional(v.nullable(v.boolean())),
  /** Source lines around the frame: `[[lineNo, text], …]`. */
  context: v.optional(v.nullable(v.array(v.tuple([v.number(), v.nullable(v.string())])))),
});

// An entry without a `type` cannot be interpreted; it is skipped rather than failing the event.
const Entry = v.looseObject({ type: v.optional(v.nullable(v.string())), data: v.optional(v.unknown()) });

/** The latest event as the API sends it (fields the CLI uses). */
export const ApiEvent = v.looseObject({
  eventID: v.string(),
  /** The issue the event belongs to (null for transactions). */
  groupID: v.optional(v.nullable(v.string())),
  message: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(v.string())),
  platform: v.optional(v.nullable(v.string())),
  dateCreated: v.optional(v.nullable(v.string())),
  dateReceived: v.optional(v.nullable(v.string())),
  tags: v.optional(v.nullable(v.array(v.looseObject({ key: v.string(), value: v.nullable(v.string()) })))),
  entries: v.optional(v.nullable(v.array(Entry))),
});
/** A validated event. */
export type ApiEvent = v.InferOutput<typeof ApiEvent>;

/** One stack frame, normalised. */
export interface StackFrame {
  filename: string;
  function: string;
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
}

/** The data of an `exception` entry: its values (a chain) and their stack frames. */
export const ExceptionData = v.looseObject({
  values: v.optional(
    v.nullable(
      v.array(
        v.looseObject({
          type: v.optional(v.nullable(v.string())),
          value: v.optional(v.nullable(v.string())),
          stacktrace: v.optional(
            v.nullable(v.looseObject({ frames: v.optional(v.nullable(v.array(Frame))) })),
          ),
        }),
      ),
    ),
  ),
});
const StacktraceData = v.looseObject({ frames: v.optional(v.nullable(v.array(Frame))) });
const MessageData = v.looseObject({ formatted: v.optional(v.nullable(v.string())) });

/** One page of an issue's events, newest first. */
export async function listIssueEventsPage(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  q: {
    query?: string;
    period?: Window;
    environments?: readonly string[];
    full: boolean;
    size: number;
    cursor?: string;
  },
): Promise<FetchedPage<ApiEvent>> {
  const res = await apiRequestDeferred(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(issueId)}/events/`,
    host: { org },
    query: {
      query: q.query,
      ...(q.period === undefined ? {} : windowQuery(q.period)),
      environment: q.environments && q.environments.length > 0 ? q.environments : undefined,
      full: q.full ? "true" : undefined,
      per_page: q.size,
      cursor: q.cursor,
    },
    schema: v.array(ApiEvent),
  });
  return { rows: () => res.parse(), nextCursor: res.nextCursor };
}

/** One event of a project by its 32-hex id. */
export async function getProjectEvent(
  ctx: TrackerContext,
  org: string,
  project: string,
  eventId: string,
): Promise<ApiEvent> {
  const res = await apiRequest(ctx, {
    path: `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/events/${encodeURIComponent(eventId)}/`,
    host: { org },
    schema: ApiEvent,
  });
  return res.data;
}

/** An event id's project and issue within an organization (API.md §15 `eventids`). */
export async function lookupEventId(
  ctx: TrackerContext,
  org: string,
  eventId: string,
): Promise<{ projectSlug: string; groupId: string; event: ApiEvent }> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/eventids/${encodeURIComponent(eventId)}/`,
    host: { org },
    schema: v.looseObject({ projectSlug: v.string(), groupId: v.string(), event: ApiEvent }),
  });
  return res.data;
}

/** The latest event of an issue. */
export async function getLatestEvent(ctx: TrackerContext, org: string, issueId: string): Promise<ApiEvent> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(issueId)}/events/latest/`,
    host: { org },
    schema: ApiEvent,
  });
  return res.data;
}

/**
 * The frames of the thrown exception (the last value of a chain), oldest call first as the API
 * orders them; falls back to a bare `stacktrace` entry. Unknown entry types are ignored.
 */
export function eventFrames(event: ApiEvent): StackFrame[] {
  for (const entry of event.entries ?? []) {
    let frames: v.InferOutput<typeof Frame>[] | null | undefined;
    if (entry.type === "exception") {
      const r = v.safeParse(ExceptionData, entry.data);
      const values = r.success ? (r.output.values ?? []) : [];
      frames = values[values.length - 1]?.stacktrace?.frames;
    } else if (entry.type === "stacktrace") {
      const r = v.safeParse(StacktraceData, entry.data);
      frames = r.success ? r.output.frames : undefined;
    }
    if (frames && frames.length > 0) {
      return frames.map((f) => ({
        filename: f.filename ?? f.absPath ?? f.module ?? "?",
        function: f.function ?? "?",
        lineNo: f.lineNo ?? null,
        colNo: f.colNo ?? null,
        inApp: f.inApp ?? false,
      }));
    }
  }
  return [];
}

/** The top in-app frames, crashing frame first (the API lists the crashing frame last). */
export function topInAppFrames(event: ApiEvent, max = 5): StackFrame[] {
  const frames = eventFrames(event);
  const inApp = frames.filter((f) => f.inApp);
  return (inApp.length > 0 ? inApp : frames).slice(-max).reverse();
}

/** The event's message: `message`, else a `message` entry, else the title. */
export function eventMessage(event: ApiEvent): string {
  if (event.message) return event.message;
  for (const entry of event.entries ?? []) {
    if (entry.type !== "message") continue;
    const r = v.safeParse(MessageData, entry.data);
    if (r.success && r.output.formatted) return r.output.formatted;
  }
  return event.title ?? "";
}

/** The spec's `latestEvent.timestamp`: `dateCreated` (the API has no timestamp) as ISO 8601 with milliseconds. */
export function eventTimestamp(event: ApiEvent): string {
  const raw = event.dateCreated ?? event.dateReceived;
  if (!raw) return "";
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? raw : new Date(ms).toISOString();
}
