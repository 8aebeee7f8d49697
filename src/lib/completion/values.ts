/**
 * Completion of the slots that take a remembered value rather than a target: the release version
 * of `release view|finalize|delete|deploy|deploys|set-commits` and the monitor slug of `monitor
 * run`, from the values the lists stored (lib/db/completion-values.ts). Local only.
 */
import type { TrackerContext } from "../../context.ts";
import { type CompletionKind, completionValues } from "../db/completion-values.ts";
import { SLUG_RE } from "../resolve/url.ts";

/** Commands whose first positional is a remembered value, by their words. */
const VALUE_SLOTS: Record<string, CompletionKind> = {
  "release view": "release",
  "release finalize": "release",
  "release delete": "release",
  "release deploy": "release",
  "release deploys": "release",
  "release set-commits": "release",
  "monitor run": "monitor",
};

/** A version the service accepts (no whitespace, no `/` or `\`) and a shell takes as one word. */
const VERSION_RE = /^[\w.@+:~-]+$/;

/**
 * The remembered values for the word being typed, or undefined when the slot is not a value slot
 * (the first positional of a command above). `args` are the finished words after the command's
 * own; `takesValue` says whether a finished flag word consumes the next word.
 */
export function valueCandidates(
  ctx: TrackerContext,
  path: readonly string[],
  args: readonly string[],
  takesValue: (flag: string) => boolean,
): string[] | undefined {
  const kind = VALUE_SLOTS[path.join(" ")];
  if (kind === undefined || args.includes("--")) return undefined;
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (w.startsWith("-")) {
      if (!w.includes("=") && takesValue(w)) i++;
    } else positionals++;
  }
  if (positionals > 0) return undefined;
  const ok = kind === "monitor" ? (s: string) => SLUG_RE.test(s) : (s: string) => VERSION_RE.test(s);
  return completionValues(ctx, kind).filter(ok);
}
