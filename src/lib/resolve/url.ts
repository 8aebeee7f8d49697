/**
 * Web URLs of the service pasted as arguments: project pages, issue pages and organization pages,
 * in both the hosted customer-domain form (`https://acme.sentry.io/issues/4001/`) and the path form
 * (`{base}/organizations/acme/issues/4001/`, `{base}/settings/acme/projects/web/`).
 */

/** What a service URL names. */
export interface ServiceUrlParts {
  org?: string;
  project?: string;
  /** Numeric issue id or short id from an issue URL. */
  issue?: string;
  /** Event id from an event URL (`…/issues/4001/events/<id>/`). */
  event?: string;
  /** Trace id from a trace URL (`…/performance/trace/<id>/`, `…/explore/traces/trace/<id>/`). */
  trace?: string;
}

/** The event and trace ids named by the path segments after the organization part. */
function pageIds(rest: readonly string[]): Pick<ServiceUrlParts, "event" | "trace"> {
  const [a, b, c, d] = rest;
  if (a === "issues" && b && c === "events" && d) return { event: d };
  if (a === "projects" && b && c === "events" && d) return { event: d };
  if (a === "performance" && b === "trace" && c) return { trace: c };
  if (a === "explore" && b === "traces" && c === "trace" && d) return { trace: d };
  if (a === "traces" && b === "trace" && c) return { trace: c };
  return {};
}

// Subdomains of sentry.io that are not organizations.
const NON_ORG_SUBDOMAINS = new Set(["www", "us", "de", "docs", "blog", "status", "api", "ingest"]);

/** Organization and project slugs: a letter or digit, then letters, digits, `_`, `.`, `-` (case is kept). */
export const SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** True when the text looks like an http(s) URL. */
export function looksLikeUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim());
}

/** A path segment with its percent-escapes decoded; undefined when an escape is malformed (`%A`, `%E0%A4%A`). */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The non-empty path segments of an http(s) URL as written (still escaped); undefined when it is not one. */
function rawSegments(text: string): { url: URL; segments: string[] } | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return { url, segments: url.pathname.split("/").filter((s) => s !== "") };
}

/**
 * The first path segment of a pasted URL whose percent-escapes are malformed (`%E0%A4%A` in
 * `https://acme.sentry.io/issues/%E0%A4%A/`), so callers can say what is wrong; undefined when
 * every escape decodes or the text is not an http(s) URL.
 */
export function malformedEscape(text: string): string | undefined {
  return rawSegments(text)?.segments.find((s) => decodeSegment(s) === undefined);
}

/**
 * Parses a service web URL; undefined when it is not a URL, names nothing we know, or has a
 * malformed percent-escape in its path (see malformedEscape).
 */
export function parseServiceUrl(text: string): ServiceUrlParts | undefined {
  const raw = rawSegments(text);
  if (!raw) return undefined;
  const { url } = raw;
  const segs: string[] = [];
  for (const s of raw.segments) {
    const decoded = decodeSegment(s);
    if (decoded === undefined) return undefined;
    segs.push(decoded);
  }
  const host = url.hostname.toLowerCase();
  const sub = /^([a-z0-9][a-z0-9-]*)\.sentry\.io$/.exec(host)?.[1];
  const domainOrg = sub && !NON_ORG_SUBDOMAINS.has(sub) ? sub : undefined;

  const [a, b, c, d] = segs;
  if (a === "organizations" && b) {
    const ids = pageIds(segs.slice(2));
    if (ids.trace) return { org: b, ...ids };
    if (c === "issues" && d) return { org: b, issue: d, ...ids };
    if (c === "projects" && d) return { org: b, project: d, ...ids };
    return { org: b };
  }
  if (a === "settings" && b) {
    if (b === "projects" && c && domainOrg) return { org: domainOrg, project: c };
    if (c === "projects" && d) return { org: b, project: d };
    if (domainOrg && b !== "projects") return { org: domainOrg };
    return { org: b };
  }
  if (domainOrg) {
    const ids = pageIds(segs);
    if (ids.trace) return { org: domainOrg, ...ids };
    if (a === "issues" && b) return { org: domainOrg, issue: b, ...ids };
    if (a === "projects" && b) return { org: domainOrg, project: b };
    return { org: domainOrg };
  }
  // A region host (`us.sentry.io`) or a server without the org in its paths: the issue alone.
  if (a === "issues" && b) return { issue: b, ...pageIds(segs) };
  return undefined;
}
