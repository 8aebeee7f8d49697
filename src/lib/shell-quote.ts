/**
 * The one quoting function for every value tracker places into a command the user may paste:
 * `Fix:` lines, tips, next-page hints, `--dry-run` output. Server data (release and dist tags,
 * short IDs, slugs) and the user's own input go through it alike, whatever their source.
 */

const SAFE_WORD = /^[A-Za-z0-9_\-./:=@,+%]+$/;
// Characters a terminal would act on or hide, written as $'\xHH' so the command stays one line.
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;

/** One control character as ANSI-C quoting (`$'\n'`): bash, zsh, ksh, busybox and POSIX.1-2024 sh. */
function ansiC(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === "\n") return "$'\\n'";
  if (ch === "\t") return "$'\\t'";
  if (code > 0xff) return `$'\\u${code.toString(16).padStart(4, "0")}'`;
  return `$'\\x${code.toString(16).padStart(2, "0")}'`;
}

/**
 * `word` as one POSIX shell word that means exactly `word`: left bare when it has only safe
 * characters, else in single quotes (`'` as `'\''`), control characters as `$'\n'` pieces so the
 * printed command is one line and nothing in it runs (`$(…)`, backticks, `;`, `|` are inert).
 */
export function quoteWord(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  if (!CONTROL.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  const parts: string[] = [];
  let run = "";
  for (const ch of word) {
    if (CONTROL.test(ch)) {
      if (run !== "") parts.push(`'${run.replace(/'/g, `'\\''`)}'`);
      run = "";
      parts.push(ansiC(ch));
    } else run += ch;
  }
  if (run !== "") parts.push(`'${run.replace(/'/g, `'\\''`)}'`);
  return parts.join("");
}

/** A command line from words, each quoted by quoteWord; `<placeholders>` are left as they are. */
export function commandLine(...words: readonly string[]): string {
  return words.map((w) => (/^<[a-z-]+>$/.test(w) ? w : quoteWord(w))).join(" ");
}
