import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { canAnimate } from "../../lib/automation.ts";
import { ValidationError } from "../../lib/errors.ts";
import { writeTip } from "../../lib/output.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { type UploadReport, uploadSourcemaps } from "../../lib/sourcemap/upload.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { UploadFlags } from "./index.ts";
import { oneLine } from "../../lib/format/one-line.ts";

/** Splits `<path…> [<target>]`: a last word that is no existing path but looks like a target is the target. */
export function splitPathsAndTarget(
  cwd: string,
  args: readonly string[],
): { paths: string[]; target?: string } {
  const last = args[args.length - 1];
  if (
    args.length > 1 &&
    last !== undefined &&
    !existsSync(resolve(cwd, last)) &&
    /^[\w.-]+\/[\w.-]+$|^https?:/.test(last)
  )
    return { paths: args.slice(0, -1), target: last };
  return { paths: [...args] };
}

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

/** The human summary of an upload. */
export function formatUpload(r: UploadReport): string[] {
  const where = `${r.org}/${r.projects.join(",")}${r.release ? ` (release ${r.release}${r.dist ? `, dist ${r.dist}` : ""})` : ""}`;
  const lines = [
    `Uploaded ${r.files.length} file${r.files.length === 1 ? "" : "s"} (${mib(r.bundleSize)} bundle) to ${where}`,
    `Chunks: ${r.chunks.sent} sent, ${r.chunks.skipped} already on the service${r.reused ? " (files unchanged: bundle reused)" : ""}`,
    `State: ${r.state}${r.detail ? ` (${r.detail})` : ""}`,
  ];
  return lines;
}

/** `tracker sourcemap upload`: resolve, bundle, send missing chunks, assemble, report. */
export default async function sourcemapUpload(
  this: TrackerContext,
  flags: UploadFlags,
  ...args: string[]
): Promise<void> {
  const { paths, target } = splitPathsAndTarget(this.cwd, args);
  if (flags.dist && !flags.release)
    throw new ValidationError(
      "--dist needs --release (the service rejects a dist without a release).",
      "dist",
    );
  if (flags.release?.includes("/"))
    throw new ValidationError(`--release must not contain '/', got '${flags.release}'.`, "release");
  const exts = flags.ext
    .split(",")
    .map((e) => e.trim().replace(/^\./, ""))
    .filter((e) => e !== "");
  if (exts.length === 0) throw new ValidationError("--ext needs at least one extension, e.g. js,map.", "ext");
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker sourcemap upload <path>",
  });
  const animate = canAnimate(this) && this.isStderrTTY && !flags.json;
  const out = this.terminal ?? this.stderr;
  const report = await uploadSourcemaps(this, org, {
    paths,
    exts,
    ignore: flags.ignore ?? [],
    bundle: {
      org,
      projects: [project],
      release: flags.release,
      dist: flags.dist,
      urlPrefix: flags.urlPrefix,
      stripPrefix: flags.stripPrefix,
      urlSuffix: flags.urlSuffix,
      rewrite: flags.rewrite,
    },
    wait: flags.wait,
    force: flags.force,
    progress: animate
      ? (sent, total) => out.write(sent < total ? `\rUploading chunks ${sent}/${total}\x1b[K` : "\r\x1b[K")
      : undefined,
  });
  writeResult(this, flags.json, report, formatUpload(report));
  if (flags.json) return;
  for (const s of report.skipped) writeTip(this, `skipped ${oneLine(s.path)}: ${oneLine(s.reason)}`);
  if (!flags.wait && (report.state === "created" || report.state === "assembling"))
    writeTip(this, "The service is processing the bundle; add --wait to see the result.");
}
