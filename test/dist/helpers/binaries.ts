/**
 * Compiled test binaries, built once per test file into a private temp dir, never dist/ (other
 * work builds there). Each embeds its own version. Also scratch dirs that are cleaned up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDefines, compile, sha256File } from "../../../script/build.ts";
import { BUILD_TARGETS, hostAsset } from "../../../src/lib/upgrade/platform.ts";
import {
  buildManifest,
  CHECKSUMS_NAME,
  formatChecksums,
  MANIFEST_NAME,
} from "../../../src/lib/upgrade/release.ts";
import type { ReleaseFile } from "./release-server.ts";

let buildDir: string | undefined;
const builds = new Map<string, Promise<string>>();
const scratchDirs: string[] = [];

/**
 * Removes every scratch dir and compiled binary made so far. Test homes hold 100+ MB binaries and
 * bun test fires no exit event, so each test file calls this in afterAll.
 */
export function cleanupScratch(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
  buildDir = undefined;
  builds.clear();
}

/** A fresh temp dir removed when the test process exits. */
export function scratchDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(d);
  return d;
}

function dir(): string {
  buildDir ??= scratchDir("tracker-dist-bins-");
  return buildDir;
}

/** A host binary reporting `version` (compiled on first request, then shared). */
export function testBinary(version: string): Promise<string> {
  let p = builds.get(version);
  if (!p) {
    const out = join(dir(), `tracker-${version}`);
    p = compile(out, { defines: buildDefines({ version }) }).then(() => out);
    builds.set(version, p);
  }
  return p;
}

const MUSL =
  process.platform === "linux" &&
  !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header
    ?.glibcVersionRuntime;

/** Asset names this machine may ask for (install.sh adds -baseline on CPUs without AVX2). */
export function hostAssets(): string[] {
  const main = hostAsset({ platform: process.platform, arch: process.arch, musl: MUSL });
  if (!main) throw new Error(`no release target for ${process.platform}-${process.arch}`);
  const t = BUILD_TARGETS.find((x) => x.asset === main);
  return BUILD_TARGETS.filter((x) => x.os === t?.os && x.arch === t?.arch && x.musl === t?.musl).map(
    (x) => x.asset,
  );
}

/** Release files serving one binary under every host asset name, with matching SHA256SUMS and manifest. */
export async function releaseFiles(
  version: string,
  binary: ReleaseFile,
  opts: { sums?: Record<string, string> } = {},
): Promise<Record<string, ReleaseFile>> {
  const real =
    "path" in binary
      ? await sha256File(binary.path)
      : new Bun.CryptoHasher("sha256").update(binary.data).digest("hex");
  const sums: Record<string, string> = {};
  const files: Record<string, ReleaseFile> = {};
  for (const asset of hostAssets()) {
    files[asset] = binary;
    sums[asset] = opts.sums?.[asset] ?? real;
  }
  files[CHECKSUMS_NAME] = { data: formatChecksums(sums) };
  files[MANIFEST_NAME] = { data: JSON.stringify(buildManifest(version, sums)) };
  return files;
}

/** Result of running a process. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with exactly the given environment and captures its output. */
export async function runProcess(
  cmd: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<RunResult> {
  const proc = Bun.spawn(cmd, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill(), 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

/** A minimal environment for a child: system PATH (optionally prefixed), HOME, and the given extras. */
export function childEnv(
  home: string,
  extra: Record<string, string> = {},
  pathPrefix?: string,
): Record<string, string> {
  const systemPath = process.env.PATH ?? "/usr/bin:/bin";
  return {
    PATH: pathPrefix ? `${pathPrefix}:${systemPath}` : systemPath,
    HOME: home,
    SHELL: "/bin/bash",
    TMPDIR: tmpdir(),
    ...extra,
  };
}
