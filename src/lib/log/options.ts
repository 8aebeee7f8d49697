/**
 * Defaults and pure parsers of the log commands (shared by their specs and implementations, so
 * the help cannot drift from the behaviour).
 */
import { parseHexId } from "../hex-id.ts";
import { parseDuration } from "../time-window.ts";

/** `-n` of `log list` and `trace logs`: range and default. */
export const LOG_LIMIT = { min: 1, max: 1000, fallback: 100 } as const;
/** Default window of `log list`. */
export const LOG_LIST_PERIOD = "24h";
/** Window of `log view` and `trace logs` (the logs retention of the hosted service). */
export const LOG_LOOKUP_PERIOD = "30d";
/** Window of each follow poll (API.md 17.2: the reference's value). */
export const FOLLOW_POLL_PERIOD = "10m";
/** Default and smallest `--interval` of `--follow`, in milliseconds. */
export const FOLLOW_INTERVAL_MS = { fallback: 2_000, min: 1_000, max: 3_600_000 } as const;
/** Longest wait between retries of a failing poll. */
export const FOLLOW_MAX_BACKOFF_MS = 60_000;
/** Log ids remembered by `--follow` to drop repeats (memory stays bounded). */
export const FOLLOW_SEEN_IDS = 2_000;
/** Sort orders of `log list`. */
export const LOG_SORTS = ["newest", "oldest"] as const;

/** Parses `--interval` (the one duration grammar, time-window.ts), from 1s to 1h, to ms. */
export function parseInterval(raw: string): number {
  return parseDuration(raw, "interval", { minMs: FOLLOW_INTERVAL_MS.min, maxMs: FOLLOW_INTERVAL_MS.max }).ms;
}

/** Parses a log id (`sentry.item_id`): 32 hex characters, dashes of the UUID form accepted. */
export function parseLogId(raw: string): string {
  return parseHexId(raw, "log", "log_id", " (the ID column of `tracker log list`)");
}
