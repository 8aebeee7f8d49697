/** Response bodies as data: JSON parsed and validated against the endpoint's valibot schema. */
import * as v from "valibot";
import { ApiError } from "../errors.ts";
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "./depth.ts";
import { errorDetail } from "./errors.ts";

/** Throws when the body nests deeper than `maxDepth` (lib/http/depth.ts): one clear error, before parsing. */
export function refuseDeep(
  text: string,
  endpoint: string,
  status: number,
  maxDepth = MAX_RESPONSE_DEPTH,
): void {
  if (maxDepth === Number.POSITIVE_INFINITY || !nestsDeeperThan(text, maxDepth)) return;
  throw new ApiError({
    status,
    endpoint,
    message: `Unexpected response from ${endpoint}: JSON nested more than ${maxDepth.toLocaleString("en-US")} levels deep; tracker does not read it`,
    hint: "The service sent data no Sentry sends. Check that TRACKER_URL points at the service's address.",
  });
}

/** A response body parsed as JSON and validated; not JSON or the wrong shape is an ApiError. */
export function parseBody<T>(
  text: string,
  schema: v.GenericSchema<unknown, T>,
  endpoint: string,
  status: number,
  maxDepth: number = MAX_RESPONSE_DEPTH,
): T {
  refuseDeep(text, endpoint, status, maxDepth);
  let json: unknown;
  try {
    json = text.trim() === "" ? null : JSON.parse(text);
  } catch {
    throw new ApiError({
      status,
      endpoint,
      message: `Unexpected response from ${endpoint}: not JSON`,
      detail: errorDetail(text),
      hint: "Check that TRACKER_URL points at the service's address.",
    });
  }
  return validateBody(json, schema, endpoint, status);
}

/** A parsed body checked against its schema; a mismatch is an ApiError naming the first wrong field. */
export function validateBody<T>(
  json: unknown,
  schema: v.GenericSchema<unknown, T>,
  endpoint: string,
  status: number,
): T {
  const r = v.safeParse(schema, json);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = issue ? v.getDotPath(issue) : undefined;
  throw new ApiError({
    status,
    endpoint,
    message: `Unexpected response from ${endpoint}`,
    detail: `${path ? `${path}: ` : ""}${issue?.message ?? "invalid shape"}`,
    hint: "The service answered with data tracker does not understand. Check TRACKER_URL, or upgrade tracker.",
  });
}
