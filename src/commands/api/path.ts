/**
 * Checks of a `tracker api` path: the request must stay below `/api/0/` of the service, however
 * the path is spelled (percent-escapes, backslashes, control characters the URL parser drops).
 */
import { ValidationError } from "../../lib/errors.ts";
import { buildUrl } from "../../lib/http/client.ts";

/** Decoding rounds checked for dot segments (`%252e%252e` is `..` to a server that decodes twice). */
const DECODE_ROUNDS = 3;

/** C0 controls and DEL: the URL parser drops tabs and newlines, so `.\t.` would become `..`. */
const CONTROL = /[\u0000-\u001f\u007f]/;

function refused(why: string): ValidationError {
  return new ValidationError(`The path ${why}; give a path below /api/0/, e.g. organizations/.`, "path");
}

/** Percent-decodes once; a malformed escape (`%zz`, a lone `%`, broken UTF-8) is a ValidationError. */
function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw refused("has a malformed percent-escape ('%' must start a UTF-8 byte such as %2F)");
  }
}

/** True when a `/`- or `\`-separated segment of `text` is `.` or `..`. */
function hasDotSegment(text: string): boolean {
  return text.split(/[/\\]/).some((seg) => seg === "." || seg === "..");
}

/**
 * Refuses a path part (no query) that could leave the directory it names: control characters,
 * `#`, and `.` or `..` segments as written, once decoded, or decoded again.
 */
export function checkPathPart(pathPart: string): void {
  if (CONTROL.test(pathPart)) throw refused("contains a control character");
  if (pathPart.includes("#")) throw refused("contains '#' (write it as %23)");
  let view = pathPart;
  if (hasDotSegment(view)) throw refused("may not contain '.' or '..' segments");
  view = decodeOnce(view);
  if (CONTROL.test(view)) throw refused("contains an escaped control character");
  for (let round = 1; ; round++) {
    if (hasDotSegment(view)) throw refused("may not contain '.' or '..' segments, escaped or not");
    if (round >= DECODE_ROUNDS || !view.includes("%")) return;
    let next: string;
    try {
      next = decodeURIComponent(view);
    } catch {
      return; // A literal '%' after one decoding: nothing more to unwrap.
    }
    if (next === view) return;
    view = next;
  }
}

/** `raw` with backslashes as slashes (the URL parser reads `\` as `/` in http URLs). */
export function normaliseSlashes(raw: string): string {
  return raw.replaceAll("\\", "/");
}

/**
 * Refuses a request path (`/api/0/...`) whose URL, built the way the HTTP client builds it, is not
 * under `<base path>/api/0/` (base: TRACKER_URL, which may carry a path prefix like `/sentry`).
 */
export function assertUnderApi(baseUrl: string, path: string): void {
  let pathname: string;
  let prefix: string;
  try {
    pathname = new URL(buildUrl(baseUrl, path)).pathname;
    prefix = `${new URL(baseUrl).pathname.replace(/\/+$/, "")}/api/0/`;
  } catch {
    throw refused("does not make a valid URL");
  }
  if (!pathname.startsWith(prefix)) throw refused(`leads outside ${prefix}`);
}
