/**
 * Upgrading an install-script install: download beside the binary, verify the checksum, run the
 * new binary's `--version` as a self-test, then rename it over the old one. Any failure removes
 * the download and leaves the old binary as it was.
 */
import { accessSync, constants } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { childEnv } from "../child-env.ts";
import { UpgradeError } from "../errors.ts";
import { realPath } from "./detect.ts";
import { downloadVerified, removeQuietly } from "./download.ts";
import { currentAsset } from "./platform.ts";
import { type ReleaseManifest, releaseAssetUrl, releaseBaseUrl } from "./release.ts";
import { acquireUpgradeLock, swapBinary } from "./swap.ts";

/** How long the new binary may take to answer `--version`. */
export const SELF_TEST_TIMEOUT_MS = 15_000;

/** Runs `<binary> --version` and insists it prints `version`; otherwise UpgradeError `execution_failed`. */
export async function selfTest(
  ctx: Pick<TrackerContext, "env">,
  binary: string,
  version: string,
): Promise<void> {
  let out = "";
  let code: number | null = null;
  try {
    const env = childEnv(ctx.env);
    const proc = Bun.spawn([binary, "--version"], { env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    const timer = setTimeout(() => proc.kill(), SELF_TEST_TIMEOUT_MS);
    [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    clearTimeout(timer);
  } catch (err) {
    throw new UpgradeError(
      "execution_failed",
      `The downloaded tracker ${version} could not be started: ${(err as Error).message}.`,
      "The installed binary was not changed.",
    );
  }
  if (code !== 0 || out.trim() !== version) {
    const what = code !== 0 ? `exited with code ${code}` : `reported version '${out.trim()}'`;
    throw new UpgradeError(
      "execution_failed",
      `The downloaded tracker ${version} failed its self-test: \`--version\` ${what}.`,
      "The installed binary was not changed.",
    );
  }
}

/** Where the download goes: a hidden file beside the binary, so the final rename stays on one file system. */
export function downloadPath(installPath: string, pid: number = process.pid): string {
  return join(dirname(installPath), `.${basename(installPath)}.${pid}.download`);
}

/** Replaces the binary at `execPath` with the manifest's version for this platform. */
export async function upgradeCurlInstall(
  ctx: TrackerContext,
  execPath: string,
  manifest: ReleaseManifest,
): Promise<{ path: string; asset: string }> {
  const asset = currentAsset();
  if (!asset) {
    throw new UpgradeError(
      "unsupported_operation",
      `There is no tracker release binary for ${process.platform}-${process.arch}.`,
      "Install tracker with npm or build it from source.",
    );
  }
  const sha256 = manifest.assets[asset];
  if (!sha256) {
    throw new UpgradeError(
      "version_not_found",
      `Release ${manifest.version} has no ${asset} binary.`,
      "Pick another version, or install a binary for this platform manually.",
    );
  }
  // Replace the real file, not a symlink pointing at it.
  const installPath = realPath(execPath);
  try {
    accessSync(dirname(installPath), constants.W_OK);
  } catch {
    throw new UpgradeError(
      "unsupported_operation",
      `Cannot upgrade ${installPath}: its directory is not writable by you.`,
      "Run the upgrade as the user who installed tracker, or reinstall it with the install script.",
    );
  }
  const release = acquireUpgradeLock(installPath);
  const tmp = downloadPath(installPath);
  try {
    await downloadVerified(ctx, {
      url: releaseAssetUrl(releaseBaseUrl(ctx), manifest.version, asset),
      dest: tmp,
      sha256,
      asset,
    });
    await selfTest(ctx, tmp, manifest.version);
    await swapBinary(tmp, installPath, { platform: process.platform, sleep: (ms) => ctx.sleep(ms) });
  } catch (err) {
    await removeQuietly(tmp);
    throw err;
  } finally {
    release();
  }
  return { path: installPath, asset };
}
