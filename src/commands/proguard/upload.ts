import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { associateProguardRelease } from "../../lib/api/difs.ts";
import { planDifUpload, writeDifDryRun } from "../../lib/debug-files/dry-run.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { normalizeDebugId } from "../../lib/debug-files/select.ts";
import { waitLogger } from "../../lib/debug-files/progress.ts";
import { type DifUploadItem, uploadDifs } from "../../lib/debug-files/upload.ts";
import { ApiError, ValidationError } from "../../lib/errors.ts";
import { writeTip } from "../../lib/output.ts";
import { writeProguardProperties } from "../../lib/proguard/properties.ts";
import { assertProguardMapping, proguardUuid } from "../../lib/proguard/uuid.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import { splitPathsAndTarget } from "../sourcemap/upload.ts";
import type { ProguardUploadFlags } from "./index.ts";

interface Mapping {
  path: string;
  abs: string;
  uuid: string;
  size: number;
}

async function readMappings(
  ctx: TrackerContext,
  paths: readonly string[],
  forced?: string,
): Promise<Mapping[]> {
  const out: Mapping[] = [];
  for (const path of paths) {
    const abs = resolveLocalFile(ctx.cwd, path);
    await assertProguardMapping(abs, path);
    const uuid = forced ?? (await proguardUuid(abs));
    if (!out.some((m) => m.uuid === uuid)) out.push({ path, abs, uuid, size: statSync(abs).size });
  }
  return out;
}

/** `tracker proguard upload`: UUIDs, the properties file, then the upload of what the service lacks. */
export default async function proguardUpload(
  this: TrackerContext,
  flags: ProguardUploadFlags,
  ...args: string[]
): Promise<void> {
  const { paths, target } = splitPathsAndTarget(this.cwd, args);
  if (flags.requireOne && paths.length !== 1)
    throw new ValidationError(
      `--require-one: exactly one mapping file is needed, got ${paths.length}.`,
      "requireOne",
    );
  let forced: string | undefined;
  if (flags.uuid !== undefined) {
    forced = normalizeDebugId(flags.uuid);
    if (forced?.length !== 36)
      throw new ValidationError(`--uuid must be a UUID, got '${flags.uuid}'.`, "uuid");
    if (paths.length !== 1) throw new ValidationError("--uuid needs exactly one mapping file.", "uuid");
  }
  if (flags.release?.includes("/"))
    throw new ValidationError(`--release must not contain '/', got '${flags.release}'.`, "release");
  const mappings = await readMappings(this, paths, forced);
  const uuids = mappings.map((m) => m.uuid);
  if (flags.writeProperties && !flags.dryRun)
    writeProguardProperties(resolve(this.cwd, flags.writeProperties), flags.writeProperties, uuids);
  const base = { propertiesFile: flags.writeProperties ?? null, release: flags.release ?? null };
  if (!flags.upload) {
    const rows = mappings.map((m) => ({
      path: m.path,
      uuid: m.uuid,
      size: m.size,
      state: "skipped",
      detail: null,
    }));
    writeResult(
      this,
      flags.json,
      { org: null, project: null, mappings: rows, uploaded: false, ...base },
      rows.map((r) => `${r.uuid}  ${r.path}`),
    );
    if (!flags.json) writeTip(this, "--no-upload: nothing was sent.");
    return;
  }
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker proguard upload <mapping>",
  });
  const items: DifUploadItem[] = mappings.map((m) => ({
    path: m.path,
    name: `/proguard/${m.uuid}.txt`,
    debugId: null,
    format: "proguard",
    arch: "any",
    features: ["mapping"],
    source: m.abs,
    offset: 0,
    size: m.size,
  }));
  if (flags.dryRun) {
    const plan = await planDifUpload(this, org, project, items);
    writeDifDryRun(this, flags.json, plan);
    if (!flags.json && flags.writeProperties)
      writeTip(this, `Dry run: ${flags.writeProperties} was not written.`);
    return;
  }
  // A release can only be tied to a mapping the service has processed: --release waits.
  const wait = flags.wait || flags.release !== undefined;
  const report = await uploadDifs(this, org, project, items, {
    wait,
    progress: waitLogger(this),
  });
  if (flags.release && report.files.every((f) => f.state === "ok")) {
    for (const uuid of uuids) {
      try {
        await associateProguardRelease(this, org, project, flags.release, uuid);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 409)) throw err;
        this.log.debug(`proguard upload: release ${flags.release} already has a mapping association`);
      }
    }
  }
  const rows = report.files.map((f, i) => ({
    path: f.path,
    uuid: uuids[i] as string,
    size: f.size,
    state: f.state,
    detail: f.detail,
  }));
  writeResult(
    this,
    flags.json,
    { org, project, mappings: rows, uploaded: true, ...base },
    rows.map(
      (r) => `${r.state === "ok" ? "OK" : r.state === "error" ? "ERROR" : "UPLOADED"}  ${r.uuid}  ${r.path}`,
    ),
  );
  if (!flags.json && report.unchanged)
    writeTip(this, "Every mapping was on the service already; nothing was sent.");
  const bad = rows.filter((r) => r.state === "error");
  if (wait && (bad.length > 0 || report.timedOut))
    throw new ApiError({
      status: 200,
      endpoint: `POST /api/0/projects/${org}/${project}/files/difs/assemble/`,
      message:
        bad.length > 0
          ? `${bad.length} mapping(s) did not process correctly`
          : "Some mappings were still processing when the wait ran out",
      detail: bad.map((r) => `${r.path}: ${r.detail ?? "(no detail)"}`).join("\n") || undefined,
    });
}
