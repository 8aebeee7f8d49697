/** Defaults and values of `feedback list`, shared by its route (index.ts) and the command (list.ts) without a cycle. */
/** Statuses `feedback list --status` takes (spam is Sentry's `ignored`). */
export const FEEDBACK_STATUS_VALUES = ["unresolved", "resolved", "spam", "all"] as const;
/** Default and bounds of `feedback list --limit`. */
export const FEEDBACK_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;
/** Default window of `feedback list` (the reference's inbox window). */
export const FEEDBACK_PERIOD = "14d";
