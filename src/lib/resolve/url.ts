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
}

// Subdomains of sentry.io that are not organizations.
const NON_ORG_SUBDOMAINS = new Set(["www", "us", "de", "docs", "blog", "status", "api", "ingest"]);

/** True when the text looks like an http(s) URL. */
export function looksLikeUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim());
}

/** Parses a service web URL; undefined when it is not a URL or names nothing we know. */
export function parseServiceUrl(text: string): ServiceUrlParts | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const segs = url.pathname
    .split("/")
    .filter((s) => s !== "")
    .map((s) => decodeURIComponent(s));
  const host = url.hostname.toLowerCase();
  const sub = /^([a-z0-9][a-z0-9-]*)\.sentry\.io$/.exec(host)?.[1];
  const domainOrg = sub && !NON_ORG_SUBDOMAINS.has(sub) ? sub : undefined;

  const [a, b, c, d] = segs;
  if (a === "organizations" && b) {
    if (c === "issues" && d) return { org: b, issue: d };
    if (c === "projects" && d) return { org: b, project: d };
    return { org: b };
  }
  if (a === "settings" && b) {
    if (b === "projects" && c && domainOrg) return { org: domainOrg, project: c };
    if (c === "projects" && d) return { org: b, project: d };
    if (domainOrg && b !== "projects") return { org: domainOrg };
    return { org: b };
  }
  if (domainOrg) {
    if (a === "issues" && b) return { org: domainOrg, issue: b };
    if (a === "projects" && b) return { org: domainOrg, project: b };
    return { org: domainOrg };
  }
  return undefined;
}
