/**
 * tracker's own terminal styling. Every colour code tracker writes carries a mark that is random
 * per process, and the sanitiser (lib/sanitize.ts) lets through only marked SGR codes: server text
 * cannot know the mark, so no colour or attribute code from server data ever reaches a terminal
 * (`ESC[8m` in an issue title would hide the rest of the screen).
 */

function randomMark(): string {
  const codes = crypto.getRandomValues(new Uint16Array(3));
  // Private-use characters: printable, never produced by tracker, and unguessable together.
  return String.fromCharCode(...Array.from(codes, (c) => 0xe000 + (c % 0x1900)));
}

/** The mark before each of tracker's own SGR codes (constant for the process). */
export const STYLE_MARK = randomMark();

/** One of tracker's own SGR codes (`ESC [ params m`), marked as tracker's. */
export function sgr(params: string): string {
  return `${STYLE_MARK}\x1b[${params}m`;
}

/** `text` between two of tracker's own SGR codes. */
export function paint(text: string, open: string, close: string): string {
  return `${sgr(open)}${text}${sgr(close)}`;
}
