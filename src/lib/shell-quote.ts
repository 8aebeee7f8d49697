/** Quoting words for the copy-paste commands tracker prints (next-page hints). */

/** Quotes a word for a POSIX shell when it needs it (single quotes, `'` as `'\''`). */
export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_\-./:=@,+%]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
