/**
 * Which environments a command filters on, and how each endpoint is told (API.md §22.2): a
 * repeated `environment=` parameter where the endpoint documents it, else a search token.
 */
import type { TrackerContext } from "../context.ts";
import { readDefaultEnvironments } from "./db/defaults.ts";

/** The environments of this run: the flag's, else the stored default (`defaults set --environment`). */
export function chosenEnvironments(
  ctx: TrackerContext,
  given: readonly string[] | undefined,
): readonly string[] {
  if (given !== undefined && given.length > 0) return [...new Set(given)];
  return readDefaultEnvironments(ctx);
}

/** Quotes one value of a search token when the search syntax needs it. */
function searchValue(value: string): string {
  return /^[^\s,"()[\]]+$/.test(value) ? value : `"${value.replace(/["\\]/g, "\\$&")}"`;
}

/** The search token for environments (`environment:prod`, `environment:[a,b]`), or undefined for none. */
export function environmentToken(envs: readonly string[]): string | undefined {
  if (envs.length === 0) return undefined;
  const values = envs.map(searchValue);
  return values.length === 1 ? `environment:${values[0]}` : `environment:[${values.join(",")}]`;
}

/** The environments as part of a saved-cursor key (absent when none, so older keys stay valid). */
export function environmentKey(envs: readonly string[]): { environment?: string } {
  return envs.length === 0 ? {} : { environment: envs.join(",") };
}

/** The flags that repeat the environments in a printed command (unquoted words). */
export function environmentArgv(envs: readonly string[], given: readonly string[] | undefined): string[] {
  return given === undefined || given.length === 0 ? [] : envs.flatMap((e) => ["-e", e]);
}
