/**
 * `--web`: the service's own page of what a view command shows. The URL is built from the service
 * URL and the resolved slugs and ids (no request needed beyond what resolving takes), then opened
 * through the hardened opener on an interactive terminal, or printed.
 */
import type { TrackerContext } from "../context.ts";
import { openBrowser, shouldOpenBrowser } from "./browser.ts";
import { isHostedUrl } from "./env.ts";
import { writeJson, writeLines, writeTip } from "./output.ts";

/**
 * An organization's web root: hosted Sentry uses its customer domain (`https://acme.sentry.io/`),
 * self-hosted servers the path form (`https://sentry.example.com/organizations/acme/`).
 */
export function orgWebUrl(baseUrl: string, org: string): string {
  const base = new URL(baseUrl);
  const slug = encodeURIComponent(org);
  if (isHostedUrl(baseUrl)) return `${base.protocol}//${slug}.sentry.io/`;
  const prefix = base.pathname.replace(/\/+$/, "");
  return `${base.origin}${prefix}/organizations/${slug}/`;
}

/** Pages under an organization, each path relative to orgWebUrl. */
export const webPath = {
  issue: (id: string) => `issues/${encodeURIComponent(id)}/`,
  event: (issueId: string, eventId: string) =>
    `issues/${encodeURIComponent(issueId)}/events/${encodeURIComponent(eventId)}/`,
  /** An event without an issue (a transaction): Sentry redirects this to the event's page. */
  projectEvent: (project: string, eventId: string) =>
    `projects/${encodeURIComponent(project)}/events/${encodeURIComponent(eventId)}/`,
  trace: (traceId: string) => `performance/trace/${encodeURIComponent(traceId)}/`,
  project: (slug: string) => `projects/${encodeURIComponent(slug)}/`,
  org: () => "",
};

/**
 * Opens a page, or prints its URL: `--json` prints `{"url": …}` and opens nothing; a terminal
 * outside CI opens the browser and says so on stderr; otherwise (piped, CI, no opener, a URL the
 * opener refuses) the URL is the output on stdout.
 */
export function openWeb(ctx: TrackerContext, org: string, path: string, json: boolean): void {
  const url = orgWebUrl(ctx.settings.baseUrl, org) + path;
  if (json) {
    writeJson(ctx, { url });
    return;
  }
  if (shouldOpenBrowser(ctx, false)) {
    const how = openBrowser(url, ctx.settings.baseUrl, ctx.env);
    if (how === "opened") {
      writeTip(ctx, `Opening ${url} in your browser.`);
      return;
    }
    ctx.log.debug(how === "unsafe" ? "Not opening a non-https URL" : "No browser opener found");
  }
  writeLines(ctx, url);
}
