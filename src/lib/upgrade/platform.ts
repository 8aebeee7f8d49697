/**
 * The release targets and their asset names, shared by script/build.ts (what to compile), the npm
 * packager, the Homebrew formula and `tracker upgrade` (which asset replaces the running binary).
 * Asset scheme: `tracker-<os>-<arch>[-musl][-baseline][.exe]`.
 */

/** Operating systems we ship binaries for. */
export type TargetOs = "linux" | "darwin" | "windows";
/** CPU architectures we ship binaries for. */
export type TargetArch = "x64" | "arm64";

/** One compiled release target. */
export interface BuildTarget {
  /** Release asset file name, e.g. `tracker-linux-x64-musl`. */
  readonly asset: string;
  readonly os: TargetOs;
  readonly arch: TargetArch;
  /** Linked against musl libc (Alpine) instead of glibc. */
  readonly musl: boolean;
  /** Built for x64 CPUs without AVX2 (older or emulated machines). */
  readonly baseline: boolean;
  /** `bun build --target` value. */
  readonly bunTarget: string;
  /** npm package (without version) carrying the Bun runtime for this target, e.g. `@oven/bun-linux-aarch64`. */
  readonly runtimePackage: string;
}

/** Release asset name of a target description. */
export function assetName(t: { os: TargetOs; arch: TargetArch; musl: boolean; baseline: boolean }): string {
  return `tracker-${t.os}-${t.arch}${t.musl ? "-musl" : ""}${t.baseline ? "-baseline" : ""}${t.os === "windows" ? ".exe" : ""}`;
}

function target(os: TargetOs, arch: TargetArch, musl = false, baseline = false): BuildTarget {
  const bunArch = arch === "arm64" ? "aarch64" : "x64";
  const suffix = `${musl ? "-musl" : ""}${baseline ? "-baseline" : ""}`;
  return {
    asset: assetName({ os, arch, musl, baseline }),
    os,
    arch,
    musl,
    baseline,
    bunTarget: `bun-${os}-${arch}${suffix}`,
    runtimePackage: `@oven/bun-${os}-${bunArch}${suffix}`,
  };
}

/** Every target `bun run build:all` compiles, in release order. */
export const BUILD_TARGETS: readonly BuildTarget[] = [
  target("linux", "x64"),
  target("linux", "arm64"),
  target("darwin", "x64"),
  target("darwin", "arm64"),
  target("windows", "x64"),
  target("linux", "x64", true),
  target("linux", "arm64", true),
  target("linux", "x64", false, true),
  target("linux", "x64", true, true),
  target("darwin", "x64", false, true),
  target("windows", "x64", false, true),
];

/** Finds a target by its asset name. */
export function findTarget(asset: string): BuildTarget | undefined {
  return BUILD_TARGETS.find((t) => t.asset === asset);
}

// Set by script/build.ts: the asset a release binary was built as, so an upgrade keeps the same
// variant (musl, baseline) instead of guessing it from the running machine.
declare const TRACKER_BUILD_ASSET: string | undefined;

/** Facts about the machine that choose a target when the build did not record one. */
export interface HostFacts {
  platform: string;
  arch: string;
  musl: boolean;
}

/** The asset matching a host, or undefined for a platform we do not ship. */
export function hostAsset(host: HostFacts): string | undefined {
  const os: TargetOs | undefined =
    host.platform === "linux"
      ? "linux"
      : host.platform === "darwin"
        ? "darwin"
        : host.platform === "win32"
          ? "windows"
          : undefined;
  const arch: TargetArch | undefined =
    host.arch === "x64" ? "x64" : host.arch === "arm64" ? "arm64" : undefined;
  if (!os || !arch || (os === "windows" && arch !== "x64")) return undefined;
  return assetName({ os, arch, musl: os === "linux" && host.musl, baseline: false });
}

/** True when the running Linux process uses musl libc (Alpine): glibc reports its version, musl does not. */
export function isMuslRuntime(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
}

/** The asset this binary should be upgraded with: the one it was built as, else the host's. */
export function currentAsset(): string | undefined {
  if (typeof TRACKER_BUILD_ASSET === "string" && TRACKER_BUILD_ASSET) return TRACKER_BUILD_ASSET;
  return hostAsset({ platform: process.platform, arch: process.arch, musl: isMuslRuntime() });
}

/** True inside a `bun build --compile` binary (its entry lives in Bun's embedded file system), false from source. */
export function isCompiledBinary(main: string = Bun.main): boolean {
  return main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);
}
