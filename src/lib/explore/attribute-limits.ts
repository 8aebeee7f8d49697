/** Defaults of `attribute list`, shared by its spec (help) and its implementation. */

/** Default window of `attribute list` (the reference's). */
export const ATTRIBUTE_PERIOD = "7d";
/** Default and bounds of `attribute list --limit`. */
export const ATTRIBUTE_LIMIT = { min: 1, max: 1000, fallback: 100 } as const;
