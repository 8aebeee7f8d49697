/**
 * Defaults and bounds of `span list` and `tracker query`, in one dependency-free module so the
 * command specs (help text) and the verbs quote the same values without importing each other.
 */

/** Default and bounds of `span list --limit`. */
export const SPAN_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;
/** The window `span list` searches unless -t says otherwise. */
export const SPAN_LIST_PERIOD = "7d";
/** The window `span view` searches for a span's trace when --trace is not given. */
export const SPAN_VIEW_PERIOD = "30d";
/** Default and bounds of `query --limit`. */
export const QUERY_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;
/** The window `query` searches unless -t says otherwise. */
export const QUERY_PERIOD = "24h";
/** Most series a grouped `--interval` query asks for (the service's topEvents cap). */
export const QUERY_TOP_SERIES = 10;
