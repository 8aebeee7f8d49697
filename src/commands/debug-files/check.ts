import type { TrackerContext } from "../../context.ts";
import { checkDifFile } from "../../lib/debug-files/check.ts";
import { ValidationError } from "../../lib/errors.ts";
import { DIF_CHECK_VIEW } from "../../lib/format/dif-check.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { CheckFlags } from "./index.ts";

/** `tracker debug-files check <file>`: what the file holds; an unusable file is printed, then an error. */
export default async function debugFilesCheck(
  this: TrackerContext,
  flags: CheckFlags,
  file: string,
): Promise<void> {
  const report = await checkDifFile(this.cwd, file);
  await writeDocView(this, flags.json, DIF_CHECK_VIEW, report);
  if (report.problem) throw new ValidationError(`${file} is not usable: ${report.problem}.`);
}
