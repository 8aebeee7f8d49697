import type { TrackerContext } from "../../context.ts";
import { canAnimate } from "../../lib/automation.ts";
import { withFoundDifs, uploadItemOf } from "../../lib/debug-files/collect.ts";
import { planDifUpload, writeDifDryRun } from "../../lib/debug-files/dry-run.ts";
import { formatsOfTypes, normalizeDebugId, selectDifs } from "../../lib/debug-files/select.ts";
import { buildSourceBundles } from "../../lib/debug-files/include-sources.ts";
import { waitLogger } from "../../lib/debug-files/progress.ts";
import { type DifUploadReport, uploadDifs } from "../../lib/debug-files/upload.ts";
import { ApiError, ValidationError } from "../../lib/errors.ts";
import { formatDifUpload } from "../../lib/format/difs.ts";
import { writeTip } from "../../lib/output.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import { splitPathsAndTarget } from "../sourcemap/upload.ts";
import type { DifUploadFlags } from "./routes-upload.ts";

function idSet(raw: readonly string[] | undefined): Set<string> | undefined {
  if (!raw || raw.length === 0) return undefined;
  return new Set(
    raw.map((r) => {
      const id = normalizeDebugId(r);
      if (!id)
        throw new ValidationError(
          `--id must be a debug ID (UUID, optionally with an age), got '${r}'.`,
          "id",
        );
      return id;
    }),
  );
}

/** The error a --wait upload ends with when some files did not process (or the wait ran out). */
function processingFailure(r: DifUploadReport): ApiError | undefined {
  const bad = r.files.filter((f) => f.state === "error");
  if (bad.length === 0 && !r.timedOut) return undefined;
  const lines = bad.map((f) => `${f.path}: ${f.detail ?? "(no detail)"}`);
  if (r.timedOut) lines.push("The wait ran out before the service finished processing the other files.");
  return new ApiError({
    status: 200,
    endpoint: `POST /api/0/projects/${r.org}/${r.project}/files/difs/assemble/`,
    message:
      bad.length > 0
        ? `${bad.length} file(s) did not process correctly`
        : "Some files were still processing when the wait ran out",
    detail: lines.join("\n"),
    hint:
      bad.length > 0
        ? "Check the files named above (corrupt, or not what the service expects), then upload again."
        : "Run with --wait again later: files already uploaded are not sent twice.",
  });
}

/** `tracker debug-files upload`: walk, filter, upload the missing files, report. */
export default async function debugFilesUpload(
  this: TrackerContext,
  flags: DifUploadFlags,
  ...args: string[]
): Promise<void> {
  const { paths, target } = splitPathsAndTarget(this.cwd, args);
  const ids = idSet(flags.id);
  if (flags.requireAll && !ids) throw new ValidationError("--require-all needs --id.", "requireAll");
  if (flags.symbolMaps !== undefined)
    this.log.warn(
      "--symbol-maps: BCSymbolMaps (Xcode builds with hidden symbols) are not supported yet; dSYMs go up as they are.",
    );
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker debug-files upload <path>",
  });
  await withFoundDifs(paths, { cwd: this.cwd, zips: flags.zips }, async (found, walkNotes, tempDir) => {
    const { selected, notes } = selectDifs(found, {
      formats: flags.type ? formatsOfTypes(flags.type) : undefined,
      ids,
      debug: flags.debug,
      unwind: flags.unwind,
      sources: flags.sources,
    });
    const bundles = flags.includeSources
      ? await buildSourceBundles(selected, tempDir)
      : { items: [], notes: [] };
    const skipped = [...walkNotes, ...notes, ...bundles.notes];
    if (ids && flags.requireAll) {
      const seen = new Set(selected.map((f) => normalizeDebugId(f.object.debugId ?? "")));
      const missing = [...ids].filter((id) => !seen.has(id));
      if (missing.length > 0)
        throw new ValidationError(`Some debug IDs were not found: ${missing.join(", ")}`, "id");
    }
    const items = [...selected.map(uploadItemOf), ...bundles.items];
    const sayNotes = () => {
      if (!flags.json) for (const s of skipped) writeTip(this, `skipped ${s.path}: ${s.reason}`);
    };
    if (flags.dryRun) {
      const plan = await planDifUpload(this, org, project, items);
      // Before the view's "Dry run: nothing was sent." on stderr, as ever.
      sayNotes();
      return writeDifDryRun(this, flags.json, plan, { skipped });
    }
    if (items.length === 0) {
      sayNotes();
      if (!flags.json) writeTip(this, `No debug information files found under ${paths.join(", ")}.`);
      // Said on stderr above: stdout stays empty, the document (and its markdown) has the values.
      const none = { total: 0, sent: 0, skipped: 0 };
      return writeResult(
        this,
        flags.json,
        { org, project, files: [], skipped, chunks: none, unchanged: true, timedOut: false },
        [],
      );
    }
    const animate = canAnimate(this) && this.isStderrTTY && !flags.json;
    const out = this.terminal ?? this.stderr;
    const log = waitLogger(this);
    const report = await uploadDifs(this, org, project, items, {
      wait: flags.wait,
      progress: (line) => (animate ? out.write(`\r${line}\x1b[K`) : log(line)),
    });
    if (animate) out.write("\r\x1b[K");
    writeResult(this, flags.json, { ...report, skipped }, formatDifUpload(report));
    sayNotes();
    const processing = report.files.some((f) => f.state === "created" || f.state === "assembling");
    if (!flags.json && !flags.wait && processing)
      writeTip(this, "The service is processing the files; add --wait to see the result.");
    const failure = flags.wait ? processingFailure(report) : undefined;
    if (failure) throw failure;
  });
}
