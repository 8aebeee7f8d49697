/**
 * Server text in a place that is one line of tracker's own output (a `Label: value` row, a title
 * line, a table cell): its line breaks are shown as ⏎, so the text cannot add lines that look like
 * tracker's (a user name of "x\nToken: sntryu_…" forging a Token row in auth status), and its tabs
 * as one space, so it cannot shift columns.
 */
const BREAKS = /\r\n|[\r\n\u2028\u2029\u0085]/g;

/** `text` on one line: every line break shown as ` ⏎ `, every tab as a space. */
export function oneLine(text: string): string {
  return text.replace(BREAKS, " ⏎ ").replace(/\t/g, " ");
}
