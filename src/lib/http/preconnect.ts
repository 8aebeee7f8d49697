/**
 * Opening the connection early: while a command loads its local state (database, token, target),
 * the TCP and TLS handshakes with the service run in the background, so the first request does not
 * wait for them (one round trip or more saved against a distant service). Only for commands that
 * talk to the service, only without a proxy or extra CA (the request would not reuse a connection
 * made without them), and never when a test injected its own fetch.
 */
import type { TrackerContext } from "../../context.ts";
import { peekRegionUrls } from "../db/regions.ts";
import { isTrustedRegionUrl } from "./client.ts";
import { fetchOptionsFor } from "./transport.ts";

/** First command words whose commands make requests to the service. */
const NETWORK_WORDS = new Set([
  "issue",
  "issues",
  "trace",
  "traces",
  "event",
  "org",
  "orgs",
  "project",
  "projects",
  "api",
]);

/** Starts connections to the service URL and the cached region URLs for a command that will need them. */
export function preconnect(ctx: TrackerContext, firstWord: string | undefined): void {
  if (!firstWord || !NETWORK_WORDS.has(firstWord) || ctx.fetch !== globalThis.fetch) return;
  const base = ctx.settings.baseUrl;
  const urls = new Set([base, ...peekRegionUrls(ctx).filter((u) => isTrustedRegionUrl(base, u))]);
  for (const url of urls) {
    const options = fetchOptionsFor(ctx, url);
    if (options.proxy || options.tls) continue;
    try {
      fetch.preconnect(url);
    } catch (err) {
      ctx.log.debug(`No early connection to ${url}: ${(err as Error).message}`);
    }
  }
}
