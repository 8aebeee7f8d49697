import type { TrackerContext } from "../../context.ts";
import { checkDifFile } from "../../lib/debug-files/check.ts";
import { ValidationError } from "../../lib/errors.ts";
import { formatDifCheck } from "../../lib/format/dif-check.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import type { CheckFlags } from "./index.ts";

/** `tracker debug-files check <file>`: what the file holds; an unusable file is printed, then an error. */
export default async function debugFilesCheck(
  this: TrackerContext,
  flags: CheckFlags,
  file: string,
): Promise<void> {
  const report = await checkDifFile(this.cwd, file);
  if (flags.json) writeJson(this, report);
  else writeLines(this, formatDifCheck(report));
  if (report.problem) throw new ValidationError(`${file} is not usable: ${report.problem}.`);
}
