/**
 * The one definition of "this machine" for URLs: `localhost` (and `*.localhost`), 127.0.0.0/8 and
 * ::1, with or without the brackets a URL's hostname keeps. Plain http, browser opening, release
 * downloads and DSN sends all ask here.
 */

/** True when `hostname` (as `URL.hostname` gives it, or bare) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** True when a URL's host is this machine; false for anything that does not parse. */
export function isLoopbackUrl(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && isLoopbackHost(parsed.hostname);
}
