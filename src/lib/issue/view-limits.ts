/** Bounds of `issue view`'s incident sections (a leaf module: the command spec shows them in help). */

/** How many notes `issue view` shows. */
export const VIEW_NOTES_MAX = 3;
