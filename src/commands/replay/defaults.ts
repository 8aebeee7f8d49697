/** Defaults of `replay list`, shared by its route (index.ts) and the command (list.ts) without a cycle. */
/** Default and bounds of `replay list --limit`. */
export const REPLAY_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;
/** Default window of `replay list`. */
export const REPLAY_PERIOD = "7d";
