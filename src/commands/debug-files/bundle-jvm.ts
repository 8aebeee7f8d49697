import { mkdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { findJvmSources, writeJvmBundle } from "../../lib/debug-files/jvm-bundle.ts";
import { normalizeDebugId } from "../../lib/debug-files/select.ts";
import { ValidationError } from "../../lib/errors.ts";
import { writeTip } from "../../lib/output.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { BundleJvmFlags } from "./routes-upload.ts";

/** `tracker debug-files bundle-jvm <dir> --debug-id <uuid> [--output <dir>]`: local, no network. */
export default async function bundleJvm(
  this: TrackerContext,
  flags: BundleJvmFlags,
  dir: string,
): Promise<void> {
  const debugId = normalizeDebugId(flags.debugId);
  if (debugId?.length !== 36)
    throw new ValidationError(`--debug-id must be a UUID, got '${flags.debugId}'.`, "debugId");
  const root = resolve(this.cwd, dir);
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new ValidationError(`${dir} is not a directory.`, "dir");
  const { sources, notes } = findJvmSources(root, flags.exclude ?? []);
  if (sources.length === 0)
    throw new ValidationError(`No Java, Kotlin, Scala, Groovy or Clojure sources under ${dir}.`, "dir");
  const outDir = resolve(this.cwd, flags.output ?? ".");
  const target = join(outDir, `${debugId}.zip`);
  const shown = relative(this.cwd, target) || target;
  let size = 0;
  if (!flags.dryRun) {
    mkdirSync(outDir, { recursive: true });
    size = await writeJvmBundle(target, debugId, sources);
  }
  // A local change: its --dry-run sends no request, so its document stays this one, `dryRun` a member.
  writeResult(
    this,
    flags.json,
    {
      path: shown,
      debugId,
      size: flags.dryRun ? null : size,
      files: sources.map((s) => ({ path: s.path, url: s.url })),
      skipped: notes,
      dryRun: flags.dryRun,
    },
    sources.map((s) => `${s.url}  ${s.path}`),
  );
  if (flags.json) return;
  for (const n of notes) writeTip(this, `skipped ${n.path}: ${n.reason}`);
  if (flags.dryRun) return writeTip(this, `Dry run: ${shown} was not written.`);
  writeTip(
    this,
    `Wrote ${shown} (${sources.length} files). Upload it: tracker debug-files upload ${quoteWord(shown)}`,
  );
}
