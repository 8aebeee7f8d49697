/** The vocabulary of `sourcemap explain`: a frame's cause and the helpers every explainer uses. */
import type { ApiEvent } from "../api/events.ts";
import { type MinifiedFrame, notCoveredByMap } from "./event-frames.ts";

/** What keeps a frame minified. */
export type FrameCause =
  | "no_debug_id"
  | "no_bundle"
  | "bundle_missing_file"
  | "release_mismatch"
  | "dist_mismatch"
  | "url_mismatch"
  | "map_not_covering"
  | "not_applied";

/** One frame's explanation. */
export interface FrameExplanation extends MinifiedFrame {
  debugId: string | null;
  cause: FrameCause;
  detail: string;
  /** For url_mismatch: the `--url-prefix` that would make the uploaded URL match. */
  urlPrefix?: string;
}

/** Facts of the event the causes and the fix need. */
export interface ExplainContext {
  target: string;
  release?: string;
  dist?: string;
}

/** The file path part of a frame's URL as an upload names it: `~/static/app.js`. */
export function tildeUrl(absPath: string): string {
  try {
    return `~${new URL(absPath).pathname}`;
  } catch {
    return `~/${absPath.replace(/^\/+/, "")}`;
  }
}

/** The prefix that turns an uploaded `candidate` URL into the frame's (`~/static/` for `~/app.js` vs …/static/app.js). */
export function prefixFor(absPath: string, candidate: string): string | undefined {
  const want = tildeUrl(absPath);
  const rel = candidate.replace(/^~\//, "").replace(/^[a-z]+:\/\/[^/]*\//i, "");
  return want.endsWith(`/${rel}`) ? want.slice(0, want.length - rel.length) : undefined;
}

/** The last path segment of a URL or path, without query or fragment. */
export const base = (p: string) =>
  p
    .replace(/[?#].*$/, "")
    .split("/")
    .pop() ?? p;

/** A frame whose file and map are uploaded: not covered by the map, or not applied yet. */
export function covered(
  event: ApiEvent,
  at: FrameExplanation | (MinifiedFrame & { debugId: string | null }),
): FrameExplanation {
  if (notCoveredByMap(event, at))
    return {
      ...at,
      cause: "map_not_covering",
      detail: `the uploaded map has no mapping for line ${at.lineNo}:${at.colNo} (a map from another build?)`,
    };
  return {
    ...at,
    cause: "not_applied",
    detail:
      "file and map are uploaded; the event was processed before the upload (new events will be symbolicated)",
  };
}

/** A frame uploaded under a URL near its own, with the prefix that would make them match. */
export function urlMismatch(
  at: MinifiedFrame & { debugId: string | null },
  candidate: string,
): FrameExplanation {
  const prefix = prefixFor(at.absPath, candidate);
  return {
    ...at,
    cause: "url_mismatch",
    detail: `uploaded as ${candidate}, but the event asks for ${tildeUrl(at.absPath)}`,
    ...(prefix ? { urlPrefix: prefix } : {}),
  };
}
