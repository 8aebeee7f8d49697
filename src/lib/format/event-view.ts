/**
 * The human view of one event (exception, in-app frames with their context lines, tags, the last
 * breadcrumbs, contexts) and the scrubbing of request data: cookies, credential headers, and
 * query-string or body fields named like secrets (token, password, api_key, …) of the event's
 * request entry are never shown, in text or JSON.
 */
import * as v from "valibot";
import { type ApiEvent, eventFrames, eventMessage, eventTimestamp, ExceptionData } from "../api/events.ts";
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

/** Renders one event for a person. */
export function formatEventView(
  event: ApiEvent,
  where: { org: string; project?: string },
  now: number,
): string[] {
  const e = event as ApiEvent & { contexts?: Record<string, unknown>; user?: Record<string, unknown> | null };
  const ts = eventTimestamp(event);
  const lines = [
    `Event ${event.eventID}${where.project ? ` (${where.org}/${where.project})` : ` (${where.org})`}`,
    `  ${event.title ?? eventMessage(event)}`,
    `  ${ts ? `${isoSeconds(ts)} (${relativeTime(ts, now)})` : "-"} · ${event.platform ?? "unknown platform"}`,
  ];
  const exceptions = entryData(event, "exception", ExceptionData)?.values ?? [];
  if (exceptions.length > 0) {
    lines.push("", "Exception");
    for (const x of exceptions) lines.push(`  ${x.type ?? "Error"}: ${x.value ?? ""}`);
  }
  const frames = eventFrames(event);
  const contexts = contextLines(event);
  const inApp = frames.map((f, i) => ({ f, ctx: contexts[i] })).filter((x) => x.f.inApp);
  const shown = (inApp.length > 0 ? inApp : frames.map((f, i) => ({ f, ctx: contexts[i] }))).reverse();
  if (shown.length > 0) {
    lines.push(
      "",
      inApp.length > 0 ? "In-app frames (most recent call first)" : "Frames (most recent call first)",
    );
    for (const { f, ctx } of shown) {
      const loc =
        f.lineNo === null ? f.filename : `${f.filename}:${f.lineNo}${f.colNo === null ? "" : `:${f.colNo}`}`;
      lines.push(`  at ${f.function} (${loc})`);
      for (const [n, text] of ctx ?? [])
        lines.push(`    ${n === f.lineNo ? ">" : " "} ${String(n).padStart(5)} | ${text ?? ""}`);
    }
  }
  const tags = event.tags ?? [];
  if (tags.length > 0) {
    lines.push("", "Tags");
    const width = Math.max(...tags.map((t) => t.key.length));
    for (const t of tags) lines.push(`  ${t.key.padEnd(width)}  ${t.value ?? ""}`);
  }
  const crumbs = entryData(event, "breadcrumbs", Crumbs)?.values ?? [];
  if (crumbs.length > 0) {
    const last = crumbs.slice(-BREADCRUMBS_SHOWN);
    lines.push("", `Breadcrumbs (last ${last.length} of ${crumbs.length})`);
    for (const c of last) {
      const at =
        typeof c.timestamp === "number" ? (isoFromMs(c.timestamp * 1000) ?? "-") : (c.timestamp ?? "");
      lines.push(`  ${isoSeconds(at) || "-"}  ${(c.category ?? "default").padEnd(10)}  ${c.message ?? ""}`);
    }
  }
  const ctxs = Object.entries(e.contexts ?? {});
  if (ctxs.length > 0) {
    lines.push("", "Contexts");
    for (const [name, value] of ctxs) {
      const parts =
        typeof value === "object" && value !== null
          ? Object.entries(value as Record<string, unknown>)
              .filter(
                ([k, x]) =>
                  k !== "type" && (typeof x === "string" || typeof x === "number" || typeof x === "boolean"),
              )
              .map(([k, x]) => `${k}=${x}`)
          : [String(value)];
      lines.push(`  ${name}: ${parts.join(" ")}`);
    }
  }
  return lines;
}
