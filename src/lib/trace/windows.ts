/**
 * Time windows and limits of the trace commands, in one dependency-free module so the command specs
 * (help text) and the implementations quote the same values without importing each other.
 */

/** Default and bounds of `trace list --limit`. */
export const TRACE_LIMIT = { min: 1, max: 1000, fallback: 20 } as const;

/** The window `trace list` searches (the reference's default). */
export const TRACE_LIST_PERIOD = "7d";
/** The window `trace view` searches; it contains the list window so a listed trace is always found. */
export const TRACE_VIEW_PERIOD = "14d";
/** How long listed trace ids stay usable as prefixes for `trace view`. */
export const RECENT_TRACES_TTL_DAYS = 7;
