import type { TrackerContext } from "../../context.ts";
import { UpgradeError } from "../../lib/errors.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
import { readInstallInfo } from "../../lib/db/install-info.ts";
import { installDir } from "../../lib/setup/paths.ts";
import { upgradeCurlInstall } from "../../lib/upgrade/curl.ts";
import { detectInstallMethod } from "../../lib/upgrade/detect.ts";
import { runPackageManager } from "../../lib/upgrade/package-manager.ts";
import { currentAsset, isCompiledBinary } from "../../lib/upgrade/platform.ts";
import {
  BREW_FORMULA,
  fetchManifest,
  latestAssetUrl,
  NPM_PACKAGE,
  releaseAssetUrl,
  releaseBaseUrl,
} from "../../lib/upgrade/release.ts";
import { refreshSetup } from "../../lib/upgrade/refresh.ts";
import { removeStaleOldBinary } from "../../lib/upgrade/swap.ts";
import { compareVersions, parseVersion } from "../../lib/upgrade/version.ts";
import { VERSION } from "../../lib/version.ts";
import type { UpgradeFlags } from "./index.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

function unknownMethod(ctx: TrackerContext, compiled: boolean, pinned: string | undefined): UpgradeError {
  const asset = currentAsset() ?? "tracker-<os>-<arch>";
  const again = `tracker upgrade${pinned ? ` ${quoteWord(pinned)}` : ""} --method curl`;
  return new UpgradeError(
    "unknown_method",
    compiled
      ? `Cannot tell how tracker at ${ctx.execPath} was installed, so it cannot upgrade itself.`
      : "tracker is running from source (not an installed binary), so it cannot upgrade itself.",
    `Pass --method curl, npm or brew, e.g. \`${again}\`. For a pinned binary (e.g. in a CI image), download ${latestAssetUrl(releaseBaseUrl(ctx), asset)}, check it against SHA256SUMS and replace the file yourself.`,
  );
}

/** `tracker upgrade [version] [--check] [--method m]`: upgrade the way tracker was installed. */
export default async function upgrade(
  this: TrackerContext,
  flags: UpgradeFlags,
  version?: string,
): Promise<void> {
  const pinned = version !== undefined ? parseVersion(version) : undefined;
  if (process.platform === "win32") removeStaleOldBinary(this.execPath);
  // A named version is checked before anything else: if it does not exist, nothing else matters.
  const early = pinned ? await fetchManifest(this, pinned) : undefined;
  const compiled = isCompiledBinary();
  const detected = flags.method
    ? { method: flags.method, reason: "--method" }
    : !compiled
      ? undefined
      : detectInstallMethod({
          execPath: this.execPath,
          installDir: installDir(this.settings, this.homeDir),
          stored: readInstallInfo(this),
        });
  if (detected) this.log.debug(`Install method ${detected.method}: ${detected.reason}`);
  const method = detected?.method;
  if (!flags.check) {
    if (!method) throw unknownMethod(this, compiled, pinned);
    if (method === "curl" && !compiled) {
      throw new UpgradeError(
        "unsupported_operation",
        "tracker is running from source; there is no installed binary to replace.",
        "Use git pull in the checkout, or install a release binary.",
      );
    }
    if (method === "brew" && pinned) {
      throw new UpgradeError(
        "unsupported_operation",
        "Homebrew cannot install a specific version of tracker.",
        `Run \`tracker upgrade\` without a version (brew upgrade ${BREW_FORMULA}), or use the install script with --version ${pinned}.`,
      );
    }
  }

  const manifest = early ?? (await fetchManifest(this, pinned));
  const target = manifest.version;
  const order = compareVersions(target, VERSION);
  const updateAvailable = pinned ? order !== 0 : order > 0;
  const result = {
    currentVersion: VERSION,
    targetVersion: target,
    updateAvailable,
    method: method ?? null,
    upgraded: false,
    path: this.execPath,
  };

  if (flags.check || !updateAvailable) {
    if (flags.json) return writeJson(this, result);
    if (!updateAvailable) {
      writeLines(this, `tracker ${VERSION} is already up to date${pinned ? "" : ` (latest: ${target})`}.`);
    } else {
      writeLines(this, `Update available: tracker ${VERSION} → ${target}.`);
      writeTip(
        this,
        method
          ? `Run \`tracker upgrade${pinned ? ` ${quoteWord(pinned)}` : ""}\` to install it.`
          : `Download ${releaseAssetUrl(releaseBaseUrl(this), target, currentAsset() ?? "tracker-<os>-<arch>")} to install it.`,
      );
    }
    return;
  }

  if (method === "curl") {
    const done = await upgradeCurlInstall(this, this.execPath, manifest);
    result.path = done.path;
    await refreshSetup(this, done.path);
  } else if (method === "npm") {
    await runPackageManager(this, ["npm", "install", "-g", `${NPM_PACKAGE}@${target}`]);
  } else if (method === "brew") {
    await runPackageManager(this, ["brew", "upgrade", BREW_FORMULA]);
  }
  result.upgraded = true;
  if (flags.json) return writeJson(this, result);
  const via = method === "curl" ? result.path : method === "npm" ? "npm" : "Homebrew";
  writeLines(this, `Upgraded tracker ${VERSION} → ${target} (${via}).`);
}
