/**
 * An org auth token (`sntrys_…`) names the service that issued it in its claim, and is valid only
 * there. In CI a step that can set environment variables for later steps must not redirect such a
 * token with SENTRY_URL/TRACKER_URL, so the claim wins over them (as the reference does) and the
 * run says once which URL was ignored.
 */
import { isHostedHost, overrideBaseUrl, parseBaseUrl, type Settings } from "./env.ts";

/** Two service URLs of the same service: both hosted (any *.sentry.io), or the same origin. */
export function sameServiceUrl(a: string, b: string): boolean {
  const x = URL.parse(a);
  const y = URL.parse(b);
  if (!x || !y) return false;
  if (isHostedHost(x.hostname) || isHostedHost(y.hostname)) {
    return isHostedHost(x.hostname) && isHostedHost(y.hostname);
  }
  return x.origin === y.origin;
}

/**
 * With TRACKER_URL/SENTRY_URL set and an environment token: when the token's org claim (read
 * lazily by `claimUrl`) names another service, that service becomes the run's service URL and
 * `settings.ignoredUrl` records the variable that lost. A claim that names no valid URL changes nothing.
 */
export function pinOrgTokenUrl(settings: Settings, claimUrl: () => string | undefined): void {
  const envUrl = settings.baseUrl;
  const name = settings.urlVar;
  if (!name) return;
  let resolved: string | undefined;
  overrideBaseUrl(settings, () => {
    if (resolved === undefined) {
      resolved = envUrl;
      let claim: string | undefined;
      try {
        const raw = claimUrl();
        claim = raw ? parseBaseUrl(raw, "the org token's url") : undefined;
      } catch {
        claim = undefined;
      }
      if (claim && !sameServiceUrl(claim, envUrl)) {
        resolved = claim;
        settings.ignoredUrl = { name, url: envUrl };
      }
    }
    return resolved;
  });
}

/** The line said once when the org token's claim won: which variable and URL were ignored. */
export function ignoredUrlNote(settings: Settings, tokenVar: string): string | undefined {
  const ignored = settings.ignoredUrl;
  if (!ignored) return undefined;
  return `Using ${settings.baseUrl}, the service the org token in ${tokenVar} was issued by; ${ignored.name}=${ignored.url} is ignored.`;
}
