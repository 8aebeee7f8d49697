/**
 * How a change command writes its outcome, through the two change views (lib/format/result.ts,
 * lib/format/dry-run.ts): `--json` (and `--format md`, `--fields`, `--jq`) gets the document, the
 * text gets its lines on stdout (never paged: a change's answer is short and may be scripted).
 */
import type { TrackerContext } from "../../context.ts";
import { type DryRun, DRY_RUN_VIEW } from "../format/dry-run.ts";
import { CHANGE_RESULT_VIEW } from "../format/result.ts";
import { writeJson, writeLines, writeTip } from "../output.ts";
import { docViewDocument, docViewLines } from "./render.ts";

/** Writes what a change did: `doc` with `--json`, else the sentence(s) `said`. */
export function writeResult(
  ctx: TrackerContext,
  json: boolean,
  doc: unknown,
  said: string | readonly string[],
): void {
  const d = { doc, said: typeof said === "string" ? [said] : said };
  if (json) writeJson(ctx, docViewDocument(ctx, CHANGE_RESULT_VIEW, d));
  else writeLines(ctx, docViewLines(ctx, CHANGE_RESULT_VIEW, d));
}

/**
 * Writes what a `--dry-run` would send: the one dry-run document with `--json`, else each request's
 * method, path and body on stdout and, on stderr, that nothing was sent.
 */
export function writeDryRunView(ctx: TrackerContext, json: boolean, d: DryRun): void {
  if (json) {
    writeJson(ctx, docViewDocument(ctx, DRY_RUN_VIEW, d));
    return;
  }
  writeLines(ctx, docViewLines(ctx, DRY_RUN_VIEW, d));
  writeTip(ctx, "Dry run: nothing was sent.");
}
