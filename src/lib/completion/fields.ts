/**
 * Completion of query fields (`query -F`, and `--fields` of the commands that list a dataset's
 * rows) from the keys `attribute list` saved: local only, never a request.
 */
import type { TrackerContext } from "../../context.ts";
import { cachedAttributeKeys } from "../db/attribute-keys.ts";

const DATASETS = ["spans", "logs", "errors"] as const;
/** The dataset whose rows each command lists (`query` names its own with --dataset). */
const COMMAND_DATASET: Record<string, string> = {
  "span list": "spans",
  "trace list": "spans",
  "log list": "logs",
};
/** Keys a completion may offer (what a shell word can carry without quoting surprises). */
const KEY_RE = /^[A-Za-z0-9_.:[\],@-]+$/;

/** The `--dataset` value among the finished words, if any. */
function datasetOf(done: readonly string[]): string | undefined {
  for (let i = 0; i < done.length; i++) {
    const w = done[i] as string;
    if (w.startsWith("--dataset=")) return w.slice("--dataset=".length);
    if (w === "--dataset") return done[i + 1];
  }
  return undefined;
}

/**
 * Field keys for the value of `flag` (`field` or `fields`) in the command at `path`, or undefined
 * when this flag is no field list there. `--fields a,b,pa` completes the last name after a comma.
 */
export function fieldCandidates(
  ctx: TrackerContext,
  path: readonly string[],
  done: readonly string[],
  flag: string | undefined,
  partial: string,
): string[] | undefined {
  const command = path.join(" ");
  const isQuery = command === "query" || command === "explore";
  if (
    !(
      (isQuery && (flag === "field" || flag === "fields")) ||
      (flag === "fields" && command in COMMAND_DATASET)
    )
  )
    return undefined;
  const asked = isQuery ? datasetOf(done) : COMMAND_DATASET[command];
  const datasets = asked && (DATASETS as readonly string[]).includes(asked) ? [asked] : [...DATASETS];
  const keys = new Set(datasets.flatMap((d) => cachedAttributeKeys(ctx, d)).filter((k) => KEY_RE.test(k)));
  const cut = flag === "fields" ? partial.lastIndexOf(",") + 1 : 0;
  const head = partial.slice(0, cut);
  const tail = partial.slice(cut);
  return [...keys].filter((k) => k.startsWith(tail)).map((k) => head + k);
}
