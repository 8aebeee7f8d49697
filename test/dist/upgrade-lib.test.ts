import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UpgradeError } from "../../src/lib/errors.ts";
import { detectInstallMethod } from "../../src/lib/upgrade/detect.ts";
import { assetName, BUILD_TARGETS, hostAsset, isCompiledBinary } from "../../src/lib/upgrade/platform.ts";
import { buildManifest, formatChecksums, parseChecksums } from "../../src/lib/upgrade/release.ts";
import {
  acquireUpgradeLock,
  lockPath,
  removeStaleOldBinary,
  type SwapFs,
  swapBinary,
} from "../../src/lib/upgrade/swap.ts";
import { compareVersions, parseVersion } from "../../src/lib/upgrade/version.ts";
import { cleanupScratch, scratchDir } from "./helpers/binaries.ts";

afterAll(cleanupScratch);

test("release targets follow tracker-<os>-<arch>[-musl][-baseline][.exe]", () => {
  expect(BUILD_TARGETS.map((t) => [t.asset, t.bunTarget, t.runtimePackage])).toEqual([
    ["tracker-linux-x64", "bun-linux-x64", "@oven/bun-linux-x64"],
    ["tracker-linux-arm64", "bun-linux-arm64", "@oven/bun-linux-aarch64"],
    ["tracker-darwin-x64", "bun-darwin-x64", "@oven/bun-darwin-x64"],
    ["tracker-darwin-arm64", "bun-darwin-arm64", "@oven/bun-darwin-aarch64"],
    ["tracker-windows-x64.exe", "bun-windows-x64", "@oven/bun-windows-x64"],
    ["tracker-linux-x64-musl", "bun-linux-x64-musl", "@oven/bun-linux-x64-musl"],
    ["tracker-linux-arm64-musl", "bun-linux-arm64-musl", "@oven/bun-linux-aarch64-musl"],
    ["tracker-linux-x64-baseline", "bun-linux-x64-baseline", "@oven/bun-linux-x64-baseline"],
    ["tracker-linux-x64-musl-baseline", "bun-linux-x64-musl-baseline", "@oven/bun-linux-x64-musl-baseline"],
    ["tracker-darwin-x64-baseline", "bun-darwin-x64-baseline", "@oven/bun-darwin-x64-baseline"],
    ["tracker-windows-x64-baseline.exe", "bun-windows-x64-baseline", "@oven/bun-windows-x64-baseline"],
  ]);
  expect(assetName({ os: "windows", arch: "x64", musl: false, baseline: true })).toBe(
    "tracker-windows-x64-baseline.exe",
  );
  expect(hostAsset({ platform: "linux", arch: "arm64", musl: true })).toBe("tracker-linux-arm64-musl");
  expect(hostAsset({ platform: "darwin", arch: "arm64", musl: false })).toBe("tracker-darwin-arm64");
  expect(hostAsset({ platform: "win32", arch: "x64", musl: false })).toBe("tracker-windows-x64.exe");
  expect(hostAsset({ platform: "win32", arch: "arm64", musl: false })).toBeUndefined();
  expect(hostAsset({ platform: "freebsd", arch: "x64", musl: false })).toBeUndefined();
  expect(isCompiledBinary("/$bunfs/root/tracker")).toBe(true);
  expect(isCompiledBinary("B:\\~BUN\\root\\tracker.exe")).toBe(true);
  expect(isCompiledBinary("/work/main/src/bin.ts")).toBe(false);
});

test("SHA256SUMS and manifest round-trip, sorted by asset name", () => {
  const sums = { "tracker-linux-x64": "a".repeat(64), "tracker-darwin-arm64": "b".repeat(64) };
  const text = formatChecksums(sums);
  expect(text).toBe(`${"b".repeat(64)}  tracker-darwin-arm64\n${"a".repeat(64)}  tracker-linux-x64\n`);
  expect(parseChecksums(text)).toEqual(sums);
  expect(parseChecksums(`${"c".repeat(64)} *tracker.exe\n`)).toEqual({ "tracker.exe": "c".repeat(64) });
  expect(() => parseChecksums("nonsense line\n")).toThrow("SHA256SUMS line 1 is malformed");
  expect(JSON.stringify(buildManifest("1.0.0", sums))).toBe(
    `{"version":"1.0.0","assets":{"tracker-darwin-arm64":"${"b".repeat(64)}","tracker-linux-x64":"${"a".repeat(64)}"}}`,
  );
});

test("versions: parse strips v, rejects junk; compare orders semver with prereleases", () => {
  expect(parseVersion(" v1.2.3 ")).toBe("1.2.3");
  expect(parseVersion("1.2.3-beta.1")).toBe("1.2.3-beta.1");
  for (const bad of ["1.2", "latest", "v", "1.2.3.4", ""])
    expect(() => parseVersion(bad)).toThrow(/Version must look like/);
  const sorted = ["1.0.0", "0.10.0", "0.9.1", "1.0.0-rc.1", "1.0.0-beta", "1.0.0-beta.2", "0.9.1"].sort(
    compareVersions,
  );
  expect(sorted).toEqual(["0.9.1", "0.9.1", "0.10.0", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-rc.1", "1.0.0"]);
  expect(compareVersions("2.0.0", "2.0.0")).toBe(0);
});

test("install-method detection: Cellar, node_modules, stored record, install dir, else nothing", () => {
  const home = scratchDir("tracker-detect-");
  const installDir = join(home, ".tracker/bin");
  const cellar = join(home, "homebrew/Cellar/tracker/0.2.0/bin");
  mkdirSync(cellar, { recursive: true });
  mkdirSync(join(home, "homebrew/bin"), { recursive: true });
  writeFileSync(join(cellar, "tracker"), "");
  symlinkSync(join(cellar, "tracker"), join(home, "homebrew/bin/tracker"));
  const base = { installDir, stored: undefined };
  expect(detectInstallMethod({ ...base, execPath: join(home, "homebrew/bin/tracker") })?.method).toBe("brew");
  expect(
    detectInstallMethod({ ...base, execPath: "/usr/lib/node_modules/@tracker-cli/linux-x64/bin/tracker" })
      ?.method,
  ).toBe("npm");
  // Cellar beats a stale record that says curl.
  expect(
    detectInstallMethod({
      installDir,
      execPath: join(cellar, "tracker"),
      stored: { method: "curl", path: join(cellar, "tracker"), version: "0.1.0" },
    })?.method,
  ).toBe("brew");
  expect(detectInstallMethod({ ...base, execPath: join(installDir, "tracker") })).toEqual({
    method: "curl",
    reason: `${join(installDir, "tracker")} is in the install directory ${installDir}`,
  });
  const stored = { method: "curl" as const, path: "/opt/tools/tracker", version: "0.1.0" };
  expect(detectInstallMethod({ installDir, execPath: "/opt/tools/tracker", stored })?.method).toBe("curl");
  // A record for another path does not apply.
  expect(detectInstallMethod({ installDir, execPath: "/usr/local/bin/tracker", stored })).toBeUndefined();
  // "Cellar" must be a whole path segment.
  expect(detectInstallMethod({ ...base, execPath: "/home/u/MyCellarTools/tracker" })).toBeUndefined();
});

/** An in-memory file system recording operations; `busy[from]` makes that many renames of `from` fail as busy. */
function memoryFs(
  files: Record<string, string>,
  busy: Record<string, number> = {},
  fail: Set<string> = new Set(),
) {
  const ops: string[] = [];
  const fs: SwapFs = {
    rename(from, to) {
      ops.push(`rename ${from} -> ${to}`);
      if (fail.has(to)) throw Object.assign(new Error(`EIO: ${to}`), { code: "EIO" });
      if ((busy[from] ?? 0) > 0) {
        busy[from] = (busy[from] ?? 0) - 1;
        throw Object.assign(new Error(`EBUSY: resource busy ${to}`), { code: "EBUSY" });
      }
      if (!(from in files)) throw Object.assign(new Error(`ENOENT ${from}`), { code: "ENOENT" });
      files[to] = files[from] as string;
      delete files[from];
    },
    unlink(path) {
      ops.push(`unlink ${path}`);
      delete files[path];
    },
    exists: (path) => path in files,
  };
  return { fs, ops, files };
}

test("Windows swap: old exe moved aside to .old, new one moved in, retrying while busy", async () => {
  // The new binary is busy twice (an antivirus scanning it), then moves.
  const m = memoryFs(
    { "C:/t/tracker.exe": "old", "C:/t/new.download": "new", "C:/t/tracker.exe.old": "older" },
    { "C:/t/new.download": 2 },
  );
  const sleeps: number[] = [];
  await swapBinary("C:/t/new.download", "C:/t/tracker.exe", {
    platform: "win32",
    fs: m.fs,
    sleep: async (ms) => void sleeps.push(ms),
  });
  expect(m.files).toEqual({ "C:/t/tracker.exe": "new", "C:/t/tracker.exe.old": "old" });
  expect(sleeps).toEqual([100, 250]);
  expect(m.ops).toEqual([
    "unlink C:/t/tracker.exe.old",
    "rename C:/t/tracker.exe -> C:/t/tracker.exe.old",
    "rename C:/t/new.download -> C:/t/tracker.exe",
    "rename C:/t/new.download -> C:/t/tracker.exe",
    "rename C:/t/new.download -> C:/t/tracker.exe",
  ]);
  // The next start removes the parked binary.
  expect(removeStaleOldBinary("C:/t/tracker.exe", m.fs)).toBe(true);
  expect(m.files).toEqual({ "C:/t/tracker.exe": "new" });
  expect(removeStaleOldBinary("C:/t/tracker.exe", m.fs)).toBe(false);
});

test("Windows swap failure restores the old exe and reports execution_failed", async () => {
  const m = memoryFs({ "C:/t/tracker.exe": "old", "C:/t/new.download": "new" }, { "C:/t/new.download": 99 });
  const sleeps: number[] = [];
  const err = await swapBinary("C:/t/new.download", "C:/t/tracker.exe", {
    platform: "win32",
    fs: m.fs,
    sleep: async (ms) => void sleeps.push(ms),
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UpgradeError);
  expect((err as UpgradeError).reason).toBe("execution_failed");
  expect((err as UpgradeError).format()).toBe(
    "Could not move the new binary into C:/t/tracker.exe: EBUSY: resource busy C:/t/tracker.exe.\n\nThe old binary was restored.",
  );
  expect(sleeps).toEqual([100, 250, 500, 1000]);
  expect(m.files).toEqual({ "C:/t/tracker.exe": "old", "C:/t/new.download": "new" });
});

test("Unix swap is one rename; a failing rename leaves the old binary", async () => {
  const m = memoryFs({ "/b/tracker": "old", "/b/.new": "new" });
  await swapBinary("/b/.new", "/b/tracker", { platform: "linux", fs: m.fs });
  expect(m.ops).toEqual(["rename /b/.new -> /b/tracker"]);
  expect(m.files).toEqual({ "/b/tracker": "new" });
  const f = memoryFs({ "/b/tracker": "old", "/b/.new": "new" }, {}, new Set(["/b/tracker"]));
  const err = await swapBinary("/b/.new", "/b/tracker", { platform: "linux", fs: f.fs }).catch(
    (e: unknown) => e,
  );
  expect((err as UpgradeError).reason).toBe("execution_failed");
  expect(f.files["/b/tracker"]).toBe("old");
});

test("upgrade lock: exclusive while its holder lives, stale locks are taken over", () => {
  const dir = scratchDir("tracker-lock-");
  const bin = join(dir, "tracker");
  const release = acquireUpgradeLock(bin, process.pid);
  expect(readFileSync(lockPath(bin), "utf8")).toBe(`${process.pid}\n`);
  // Another process (the test runner's parent is alive) holding it blocks us.
  writeFileSync(lockPath(bin), `${process.ppid}\n`);
  expect(() => acquireUpgradeLock(bin, process.pid)).toThrow(`Another upgrade of ${bin} is running`);
  // A dead PID is stale.
  writeFileSync(lockPath(bin), "999999999\n");
  const again = acquireUpgradeLock(bin, process.pid);
  expect(readFileSync(lockPath(bin), "utf8")).toBe(`${process.pid}\n`);
  again();
  release();
});
