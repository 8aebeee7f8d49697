/**
 * sentry-cli's spellings typed to tracker (`tracker login`, `tracker releases new`): a usage error
 * that names tracker's form from the translation table, instead of "unknown command" or a shortcut
 * (`tracker releases` lists releases) reading the verb as a target.
 */
import { CliError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { FORMS } from "./forms.ts";

/** tracker's words that are commands (list shortcuts), so a sentry-cli verb after them would be a target. */
const SHORTCUTS = new Set(["releases", "projects", "issues"]);

/** The error for sentry-cli's spelling in `words` (argv without global flags), or undefined. */
export function sentryCliHabit(
  words: readonly string[],
  isTrackerWord: (word: string) => boolean,
): CliError | undefined {
  const [w1, w2] = words;
  if (w1 === undefined || (isTrackerWord(w1) && !SHORTCUTS.has(w1))) return undefined;
  for (const form of FORMS) {
    // A form spelled as tracker spells it (debug-files …) is tracker's own once that command exists.
    if (form.missing || form.words.split(" ")[0] === form.tracker.split(" ")[0]) continue;
    const literal = form.words.split(" ").filter((w) => !w.startsWith("<"));
    const [f1, f2] = literal;
    if (f1 !== w1 || (f2 !== undefined && f2 !== w2)) continue;
    if (f2 === undefined && isTrackerWord(w1)) continue;
    const typed = f2 === undefined ? f1 : `${f1} ${f2}`;
    return new CliError(
      `'tracker ${typed}' is sentry-cli's spelling. Did you mean 'tracker ${form.tracker}'?\n` +
        `To run sentry-cli command lines unchanged: 'tracker sentry-cli ${typed} …' (see tracker help sentry-cli).`,
      EXIT.usage,
    );
  }
  return undefined;
}
