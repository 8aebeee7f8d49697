/** The bound of `-n` in query-wide changes (no imports: the command specs load it at startup). */

/** The largest `-n` of a query-wide change. */
export const QUERY_CHANGE_MAX = 1000;
