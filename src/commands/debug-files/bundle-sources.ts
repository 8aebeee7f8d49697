import { mkdirSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { bundleNamedFiles, dsymDwarfFile, writeError } from "../../lib/debug-files/bundle-sources.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { writeTip } from "../../lib/output.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { BundleSourcesFlags } from "./routes-sources.ts";

/** `tracker debug-files bundle-sources <file>… [--output <dir>]`: local, no network. */
export default async function bundleSources(
  this: TrackerContext,
  flags: BundleSourcesFlags,
  ...args: string[]
): Promise<void> {
  const files = args.map((shown) => ({
    abs: resolveLocalFile(this.cwd, dsymDwarfFile(resolve(this.cwd, shown))),
    shown,
  }));
  const outDir = flags.output === undefined ? undefined : resolve(this.cwd, flags.output);
  if (outDir && !flags.dryRun)
    try {
      mkdirSync(outDir, { recursive: true });
    } catch (err) {
      throw writeError(outDir, err);
    }
  const { bundles, notes } = await bundleNamedFiles(files, { outDir, dryRun: flags.dryRun });
  const shownPath = (p: string) => relative(this.cwd, p) || p;
  const written = bundles.filter((b) => b.output !== null);
  // A local change: its --dry-run sends no request, so its document stays this one, `dryRun` a member.
  writeResult(
    this,
    flags.json,
    {
      bundles: bundles.map((b) => ({
        input: b.input,
        arch: b.arch,
        debugId: b.debugId,
        output: b.output && shownPath(b.output),
        size: flags.dryRun ? null : b.size,
        files: b.files,
      })),
      skipped: notes,
      dryRun: flags.dryRun,
    },
    written.map((b) => shownPath(b.output as string)),
  );
  if (flags.json) return;
  for (const n of notes) writeTip(this, `skipped ${n.path}: ${n.reason}`);
  if (flags.dryRun) {
    for (const b of written)
      writeTip(this, `${shownPath(b.output as string)}: ${b.files.map((f) => f.path).join(", ")}`);
    return writeTip(this, "Dry run: no bundle was written.");
  }
  if (written.length > 0)
    writeTip(
      this,
      `Wrote ${written.length} source bundle(s). Upload: tracker debug-files upload ${written.map((b) => quoteWord(shownPath(b.output as string))).join(" ")}`,
    );
}
