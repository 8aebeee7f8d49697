/** The tip under `issue list` naming its first row, with every value quoted for the shell. */
import { quoteWord } from "../shell-quote.ts";

/**
 * `tracker issue view <ref>` for the first row: by alias and suffix in aliased listings (and by
 * `ref`, the reference scripts get, when that differs from the short ID).
 */
export function issueViewTip(
  ref: string,
  shortId: string,
  alias: string | undefined,
  aliased: boolean,
): string {
  if (!aliased) return `Tip: tracker issue view ${quoteWord(ref)} shows an issue with its latest event.`;
  const suffix = shortId.slice(shortId.lastIndexOf("-") + 1);
  const byAlias = `Tip: view an issue by alias and suffix, e.g. tracker issue view ${quoteWord(`${alias}-${suffix}`)}`;
  return ref === shortId ? byAlias : `${byAlias}, or by organization: tracker issue view ${quoteWord(ref)}`;
}
