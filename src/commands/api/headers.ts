/** `tracker api -H 'Name: value'`: parsing and the headers a user may not set. */
import { ValidationError } from "../../lib/errors.ts";

/**
 * Headers tracker owns: the token (Authorization), where the request goes (Host), credentials a
 * proxy or browser would add, and the framing of the body (a wrong length smuggles requests).
 */
const REFUSED = new Set([
  "host",
  "authorization",
  "cookie",
  "proxy-authorization",
  "content-length",
  "transfer-encoding",
]);

/** An RFC 9110 field name (a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `x-trace-id` → `X-Trace-Id`: one spelling, so the client's own `Accept`/`Content-Type` match it. */
function canonicalName(name: string): string {
  return name
    .toLowerCase()
    .split("-")
    .map((w) => (w === "" ? w : (w[0] as string).toUpperCase() + w.slice(1)))
    .join("-");
}

/** One `-H` value as [name, value]; a ValidationError when it is malformed or not allowed. */
export function parseHeader(raw: string): [string, string] {
  if (/[\r\n\0]/.test(raw))
    throw new ValidationError("-H may not contain line breaks (CR, LF) or NUL characters.", "header");
  const at = raw.indexOf(":");
  const name = at > 0 ? raw.slice(0, at).trim() : "";
  if (!TOKEN.test(name))
    throw new ValidationError(`-H must be 'Name: value' with a valid header name, got '${raw}'.`, "header");
  if (REFUSED.has(name.toLowerCase())) {
    const why =
      name.toLowerCase() === "authorization"
        ? "tracker sends your login's token itself"
        : "tracker sets it itself, and it could send the request or its credentials elsewhere";
    throw new ValidationError(`-H ${name} is not allowed: ${why}.`, "header");
  }
  return [canonicalName(name), raw.slice(at + 1).trim()];
}

/** The request headers of all `-H` values (a later value of the same name wins). */
export function requestHeaders(raw: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw ?? []) {
    const [name, value] = parseHeader(h);
    out[name] = value;
  }
  return out;
}
