/**
 * Cutting text by UTF-16 length without splitting a character: a cut that would end between the
 * two halves of a surrogate pair (an emoji, a rare CJK character) keeps one unit fewer, so no lone
 * half reaches a terminal, a markdown document or the service.
 */

/** The first `n` UTF-16 units of `s`, one fewer when the last one would be half of a pair. */
export function headUnits(s: string, n: number): string {
  if (n <= 0) return "";
  if (n >= s.length) return s;
  const last = s.charCodeAt(n - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}
