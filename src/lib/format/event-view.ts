/**
 * The view of one event (exception, in-app frames with their context lines, tags, the last
 * breadcrumbs, contexts) and the scrubbing of request data: cookies, credential headers, and
 * query-string or body fields named like secrets (token, password, api_key, …) of the event's
 * request entry are never shown, in text or JSON.
 */
import * as v from "valibot";
import {
  type ApiEvent,
  eventFrames,
  eventMessage,
  eventTimestamp,
  ExceptionData,
  type StackFrame,
} from "../api/events.ts";
import type { DocView, ViewSection } from "../view/doc.ts";
import { isoFromMs, isoSeconds, relativeTime } from "./time.ts";

/** How many breadcrumbs the view shows (the newest). */
export const BREADCRUMBS_SHOWN = 20;

const SECRET_HEADER_RE = /^(cookie|set-cookie|authorization|proxy-authorization|x-api-key|x-auth-token)$/i;
/** Field names whose values are credentials (as Sentry's own data scrubber treats them). */
const SECRET_FIELD_RE =
  /(pass(word|wd)?|secret|token|api[-_]?key|apikey|auth|credentials?|session(id)?|sig(nature)?|private[-_]?key|access[-_]?key|csrf)/i;
const FILTERED = "[Filtered]";

/** A query string (`a=1&token=x`, or Sentry's `[[k, v], …]` pairs) with secret-named values filtered. */
function scrubQuery(q: unknown): unknown {
  if (Array.isArray(q))
    return q.map((p) =>
      Array.isArray(p) && typeof p[0] === "string" && SECRET_FIELD_RE.test(p[0]) ? [p[0], FILTERED] : p,
    );
  if (typeof q !== "string") return q;
  return q
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      const key = at < 0 ? pair : pair.slice(0, at);
      let name = key;
      try {
        name = decodeURIComponent(key.replace(/\+/g, " "));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return at >= 0 && SECRET_FIELD_RE.test(name) ? `${key}=${FILTERED}` : pair;
    })
    .join("&");
}

/** A request body (object, `[[k, v]]` pairs or form text) with secret-named fields filtered. */
function scrubBody(body: unknown, depth = 0): unknown {
  if (typeof body === "string")
    return body.includes("=") && !body.trimStart().startsWith("{") ? scrubQuery(body) : body;
  if (typeof body !== "object" || body === null) return body;
  // Nothing this deep is read by a person; unchecked, it could hide a secret (and a recursion).
  if (depth >= 32) return FILTERED;
  if (Array.isArray(body)) return depth > 0 ? body.map((x) => scrubBody(x, depth + 1)) : scrubQuery(body);
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([k, val]) => [
      k,
      SECRET_FIELD_RE.test(k) ? FILTERED : scrubBody(val, depth + 1),
    ]),
  );
}

/** A copy of the event whose request entries carry no cookies and no credential headers. */
export function scrubEvent<T extends ApiEvent>(event: T): T {
  const entries = (event.entries ?? []).map((e) => {
    if (e.type !== "request" || typeof e.data !== "object" || e.data === null) return e;
    const data = { ...(e.data as Record<string, unknown>) };
    if ("cookies" in data) data.cookies = FILTERED;
    if ("query_string" in data) data.query_string = scrubQuery(data.query_string);
    // The service's API gives the query as `query`, a list of [key, value] pairs (or an object).
    if ("query" in data)
      data.query = Array.isArray(data.query) ? scrubQuery(data.query) : scrubBody(data.query);
    if (typeof data.fragment === "string") data.fragment = scrubQuery(data.fragment);
    if ("data" in data) data.data = scrubBody(data.data);
    if (typeof data.url === "string" && data.url.includes("?")) {
      const at = data.url.indexOf("?");
      data.url = `${data.url.slice(0, at + 1)}${scrubQuery(data.url.slice(at + 1))}`;
    }
    if (Array.isArray(data.headers)) {
      data.headers = (data.headers as unknown[]).map((h) =>
        Array.isArray(h) && typeof h[0] === "string" && SECRET_HEADER_RE.test(h[0])
          ? [h[0], "[Filtered]"]
          : h,
      );
    } else if (typeof data.headers === "object" && data.headers !== null) {
      data.headers = Object.fromEntries(
        Object.entries(data.headers as Record<string, unknown>).map(([k, val]) => [
          k,
          SECRET_HEADER_RE.test(k) ? "[Filtered]" : val,
        ]),
      );
    }
    return { ...e, data };
  });
  return { ...event, entries };
}

const Crumbs = v.looseObject({
  values: v.optional(
    v.nullable(
      v.array(
        v.looseObject({
          timestamp: v.optional(v.nullable(v.union([v.string(), v.number()]))),
          category: v.optional(v.nullable(v.string())),
          level: v.optional(v.nullable(v.string())),
          message: v.optional(v.nullable(v.string())),
        }),
      ),
    ),
  ),
});
function entryData<T>(event: ApiEvent, type: string, schema: v.GenericSchema<unknown, T>): T | undefined {
  const entry = (event.entries ?? []).find((e) => e.type === type);
  if (!entry) return undefined;
  const r = v.safeParse(schema, entry.data);
  return r.success ? r.output : undefined;
}

/** Context lines of the crashing exception's frames, in the order eventFrames gives them. */
function contextLines(event: ApiEvent): (readonly [number, string | null][] | undefined)[] {
  const values = entryData(event, "exception", ExceptionData)?.values ?? [];
  const frames = values[values.length - 1]?.stacktrace?.frames ?? [];
  return frames.map((f) => f.context ?? undefined);
}

/** One event to show, and where it was found (the title names it). */
export interface EventViewDoc {
  event: ApiEvent;
  org: string;
  project?: string | undefined;
}

const linesOf = (lines: readonly string[]) => ({ kind: "lines", lines }) as const;

type ShownFrame = { f: StackFrame; ctx: readonly [number, string | null][] | undefined };

/** A frame and its context lines (the crashing line marked `>`). */
function frameLines({ f, ctx }: ShownFrame): string[] {
  const loc =
    f.lineNo === null ? f.filename : `${f.filename}:${f.lineNo}${f.colNo === null ? "" : `:${f.colNo}`}`;
  return [
    `  at ${f.function} (${loc})`,
    ...(ctx ?? []).map(
      ([n, text]) => `    ${n === f.lineNo ? ">" : " "} ${String(n).padStart(5)} | ${text ?? ""}`,
    ),
  ];
}

/**
 * The stack, most recent call first: the in-app frames with their context lines (always kept), or
 * every frame when none is in-app. The library frames beside in-app ones are for the markdown only,
 * and go first under a size bound.
 */
function frameSections(event: ApiEvent): ViewSection[] {
  const contexts = contextLines(event);
  const all = eventFrames(event).map((f, i): ShownFrame => ({ f, ctx: contexts[i] }));
  const inApp = all.filter((x) => x.f.inApp);
  const lib = all.filter((x) => !x.f.inApp);
  if (inApp.length === 0) {
    const lines = lib.reverse().flatMap(frameLines);
    return [
      {
        heading: "Frames (most recent call first)",
        block: linesOf(lines),
        priority: 10,
        label: "library frames",
      },
    ];
  }
  return [
    {
      heading: "In-app frames (most recent call first)",
      block: linesOf(inApp.reverse().flatMap(frameLines)),
    },
    {
      heading: "Library frames (most recent call first)",
      block: linesOf(lib.reverse().flatMap(frameLines)),
      markdownOnly: true,
      priority: 10,
      label: "library frames",
    },
  ];
}

function crumbSection(event: ApiEvent): ViewSection {
  const crumbs = entryData(event, "breadcrumbs", Crumbs)?.values ?? [];
  const last = crumbs.slice(-BREADCRUMBS_SHOWN);
  return {
    heading: `Breadcrumbs (last ${last.length} of ${crumbs.length})`,
    block: linesOf(
      last.map((c) => {
        const at =
          typeof c.timestamp === "number" ? (isoFromMs(c.timestamp * 1000) ?? "-") : (c.timestamp ?? "");
        return `  ${isoSeconds(at) || "-"}  ${(c.category ?? "default").padEnd(10)}  ${c.message ?? ""}`;
      }),
    ),
    // The oldest go first under a size bound.
    priority: (i, n) => 8 + (n - i) / 100,
    label: "breadcrumbs",
  };
}

function contextSection(event: ApiEvent): ViewSection {
  const contexts = (event as { contexts?: Record<string, unknown> }).contexts ?? {};
  return {
    heading: "Contexts",
    block: linesOf(
      Object.entries(contexts).map(([name, value]) => {
        const parts =
          typeof value === "object" && value !== null
            ? Object.entries(value as Record<string, unknown>)
                .filter(
                  ([k, x]) =>
                    k !== "type" &&
                    (typeof x === "string" || typeof x === "number" || typeof x === "boolean"),
                )
                .map(([k, x]) => `${k}=${x}`)
            : [String(value)];
        return `  ${name}: ${parts.join(" ")}`;
      }),
    ),
    priority: 7,
    label: "contexts",
  };
}

/**
 * `event view`: the event's title and time, its exception, stack, tags, last breadcrumbs and
 * contexts. The document is the event without its request's credentials (scrubEvent).
 */
export const EVENT_VIEW: DocView<EventViewDoc> = {
  name: "event view",
  id: "eventID",
  document: (d) => d.event,
  sections: ({ event, org, project }, c) => {
    const ts = eventTimestamp(event);
    const tags = event.tags ?? [];
    const width = Math.max(0, ...tags.map((t) => t.key.length));
    return [
      {
        block: linesOf([
          `Event ${event.eventID}${project ? ` (${org}/${project})` : ` (${org})`}`,
          `  ${event.title ?? eventMessage(event)}`,
          `  ${ts ? `${isoSeconds(ts)} (${relativeTime(ts, c.now)})` : "-"} · ${event.platform ?? "unknown platform"}`,
        ]),
      },
      {
        heading: "Exception",
        block: linesOf(
          (entryData(event, "exception", ExceptionData)?.values ?? []).map(
            (x) => `  ${x.type ?? "Error"}: ${x.value ?? ""}`,
          ),
        ),
      },
      ...frameSections(event),
      {
        heading: "Tags",
        block: linesOf(tags.map((t) => `  ${t.key.padEnd(width)}  ${t.value ?? ""}`)),
        priority: 6,
        keep: 5,
        label: "tags",
      },
      crumbSection(event),
      contextSection(event),
    ];
  },
};
