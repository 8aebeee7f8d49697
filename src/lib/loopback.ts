/**
 * The one definition of "this machine" for URLs: `localhost`, `127.0.0.1` and `::1` (with or
 * without the brackets a URL's hostname keeps), the same three install.sh accepts. Other 127/8
 * addresses and `*.localhost` names are not trusted to stay on the machine. Plain http, browser
 * opening, release downloads and DSN sends all ask here.
 */

/** True when `hostname` (as `URL.hostname` gives it, or bare) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "127.0.0.1" || h === "::1";
}

/** True when a URL's host is this machine; false for anything that does not parse. */
export function isLoopbackUrl(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && isLoopbackHost(parsed.hostname);
}
