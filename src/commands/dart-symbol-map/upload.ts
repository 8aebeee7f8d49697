import { basename } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { checkDifFile } from "../../lib/debug-files/check.ts";
import { planDifUpload, writeDifDryRun } from "../../lib/debug-files/dry-run.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { normalizeDebugId } from "../../lib/debug-files/select.ts";
import { waitLogger } from "../../lib/debug-files/progress.ts";
import { type DifUploadItem, uploadDifs } from "../../lib/debug-files/upload.ts";
import { ApiError, ValidationError } from "../../lib/errors.ts";
import { formatDifUpload } from "../../lib/format/difs.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { DartSymbolMapUploadFlags } from "./index.ts";
import { readRegularFile } from "../../lib/fs/regular.ts";

/** Largest map read to check its shape. */
const MAX_MAP_BYTES = 256 * 1024 * 1024;

async function assertDartMap(abs: string, shown: string): Promise<number> {
  // A regular file, capped while reading (a FIFO would block, /proc has no size).
  const read = readRegularFile(abs, MAX_MAP_BYTES);
  if (!read.ok)
    throw new ValidationError(
      read.why === "too-large"
        ? `${shown} is larger than ${MAX_MAP_BYTES} bytes.`
        : `Cannot read ${shown}: ${read.note}.`,
      "path",
    );
  let raw: unknown;
  try {
    raw = JSON.parse(read.data.toString("utf8"));
  } catch (err) {
    throw new ValidationError(
      `Invalid dartsymbolmap: ${shown} is not valid JSON (${(err as Error).message}).`,
      "path",
    );
  }
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === "string"))
    throw new ValidationError(`Invalid dartsymbolmap: ${shown} must be a JSON array of strings.`, "path");
  if (raw.length % 2 !== 0)
    throw new ValidationError(
      `Invalid dartsymbolmap: expected an even number of entries, got ${raw.length}.`,
      "path",
    );
  return read.data.length;
}

/** The debug ID the map belongs to: --debug-id, or the single one of --debug-file (exactly one given). */
async function mapDebugId(cwd: string, flags: DartSymbolMapUploadFlags): Promise<string> {
  if ((flags.debugId === undefined) === (flags.debugFile === undefined))
    throw new ValidationError("Give one of --debug-id <id> or --debug-file <file>.", "debugId");
  if (flags.debugId !== undefined) {
    const id = normalizeDebugId(flags.debugId);
    if (!id) throw new ValidationError(`--debug-id must be a debug ID, got '${flags.debugId}'.`, "debugId");
    return id;
  }
  const file = flags.debugFile as string;
  const ids = [
    ...new Set((await checkDifFile(cwd, file)).objects.map((o) => o.debugId).filter((id) => id !== null)),
  ];
  if (ids.length !== 1)
    throw new ValidationError(
      ids.length === 0
        ? `No debug ID found in ${file}.`
        : `${file} has ${ids.length} debug IDs (${ids.join(", ")}); name one with --debug-id.`,
      "debugFile",
    );
  return ids[0] as string;
}

/** `tracker dart-symbol-map upload <file> (--debug-id <id> | --debug-file <file>)`. */
export default async function dartSymbolMapUpload(
  this: TrackerContext,
  flags: DartSymbolMapUploadFlags,
  file: string,
  target?: string,
): Promise<void> {
  const debugId = await mapDebugId(this.cwd, flags);
  const abs = resolveLocalFile(this.cwd, file);
  const size = await assertDartMap(abs, file);
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker dart-symbol-map upload <file>",
  });
  const item: DifUploadItem = {
    path: file,
    name: basename(file),
    debugId,
    format: "dartsymbolmap",
    arch: "any",
    features: ["mapping"],
    source: abs,
    offset: 0,
    size,
  };
  if (flags.dryRun) {
    const plan = await planDifUpload(this, org, project, [item]);
    return writeDifDryRun(this, flags.json, plan);
  }
  const report = await uploadDifs(this, org, project, [item], {
    wait: flags.wait,
    requires: "dartsymbolmap",
    progress: waitLogger(this),
  });
  writeResult(this, flags.json, report, formatDifUpload(report));
  const f = report.files[0];
  if (flags.wait && (f?.state === "error" || report.timedOut))
    throw new ApiError({
      status: 200,
      endpoint: `POST /api/0/projects/${org}/${project}/files/difs/assemble/`,
      message:
        f?.state === "error"
          ? "The symbol map did not process correctly"
          : "The symbol map was still processing when the wait ran out",
      detail: f?.detail ?? undefined,
    });
}
