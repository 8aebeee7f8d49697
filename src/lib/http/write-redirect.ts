/**
 * Redirects of a change (POST, PUT, DELETE…). fetch follows a 307/308 by sending the same body
 * again to wherever Location points, another host included, and only then could tracker see
 * where it went. A change therefore follows redirects by hand: one to another origin stops before
 * anything is sent there, a 307/308 within the service's origin is followed (a few hops), and a
 * 301/302/303 (which fetch would turn into a GET without the body) stops instead of changing what
 * the request does.
 */
import { ApiError, type CliError } from "../errors.ts";
import { crossOriginRedirect } from "./url.ts";

/** Most same-origin 307/308 hops a change follows. */
export const MAX_WRITE_REDIRECTS = 5;

/** The final answer, or why tracker stopped following (nothing was sent to the redirect's target). */
export type WriteFetch = { res: Response } | { stop: CliError };

/** True for methods that change something: their redirects are followed by fetchWrite. */
export function isWriteMethod(method: string | undefined): boolean {
  const m = (method ?? "GET").toUpperCase();
  return m !== "GET" && m !== "HEAD";
}

/** `fetchFn(url, init)` for a change, following only same-origin 307/308 redirects, by hand. */
export async function fetchWrite(
  fetchFn: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: RequestInit,
  endpoint: string,
): Promise<WriteFetch> {
  let at = url;
  for (let hop = 0; ; hop++) {
    const res = await fetchFn(at, { ...init, redirect: "manual" });
    const location = res.headers.get("location");
    if (res.status < 300 || res.status > 399 || res.status === 304 || location === null) return { res };
    await res.body?.cancel().catch(() => undefined);
    const next = URL.parse(location, at)?.href;
    const moved = next === undefined ? undefined : crossOriginRedirect(url, next);
    if (moved) return { stop: moved };
    if (next === undefined || (res.status !== 307 && res.status !== 308) || hop >= MAX_WRITE_REDIRECTS) {
      return {
        stop: new ApiError({
          status: res.status,
          endpoint,
          message: `The service answered ${endpoint} with a redirect (${res.status}) to ${location}; tracker does not resend a change there, and nothing more was sent.`,
          hint: "Check TRACKER_URL: it should be the service's own address.",
        }),
      };
    }
    at = next;
  }
}
