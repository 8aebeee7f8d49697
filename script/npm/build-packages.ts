/**
 * Generates the npm packages from a built release (the esbuild/Bun pattern): one launcher package
 * `tracker-cli` whose optionalDependencies name one package per platform, each declaring its
 * os/cpu(/libc) so npm installs only the matching one, carrying the binary in bin/.
 *
 *   bun run script/npm/build-packages.ts --release dist/release --out dist/npm [--version 1.2.3]
 *
 * Then `npm publish` each platform directory first and the launcher last.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { BUILD_TARGETS, type BuildTarget } from "../../src/lib/upgrade/platform.ts";
import { NPM_PACKAGE } from "../../src/lib/upgrade/release.ts";

/** npm scope of the per-platform packages. */
export const NPM_SCOPE = "@tracker-cli";

/** One per-platform npm package. */
export interface NpmPlatform {
  /** Launcher lookup key: `<os>-<arch>[-musl]`. */
  key: string;
  name: string;
  target: BuildTarget;
}

/** Platforms published to npm: every target except the baseline builds (npm cannot tell CPU features apart). */
export function npmPlatforms(): NpmPlatform[] {
  return BUILD_TARGETS.filter((t) => !t.baseline).map((t) => {
    const key = `${t.os}-${t.arch}${t.musl ? "-musl" : ""}`;
    return { key, name: `${NPM_SCOPE}/${key}`, target: t };
  });
}

/** Options of buildNpmPackages. */
export interface NpmBuildOptions {
  /** Directory holding the release binaries (named by asset). */
  releaseDir: string;
  outDir: string;
  version: string;
}

/** Where the packages were written. */
export interface NpmPackages {
  launcher: string;
  /** Platform package directories, only for binaries present in the release dir. */
  platforms: string[];
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

const COMMON = {
  description: "Command-line client for Sentry-compatible error tracking",
  homepage: "https://github.com/tracker-cli/tracker",
};

/** Writes the launcher and every platform package whose binary exists in the release dir. */
export function buildNpmPackages(opts: NpmBuildOptions): NpmPackages {
  rmSync(opts.outDir, { recursive: true, force: true });
  const platforms = npmPlatforms();
  const launcher = join(opts.outDir, "tracker-cli");
  mkdirSync(join(launcher, "bin"), { recursive: true });
  const table = Object.fromEntries(platforms.map((p) => [p.key, p.name]));
  const source = readFileSync(resolve(import.meta.dir, "launcher.cjs"), "utf8").replace(
    "__PACKAGES__",
    JSON.stringify(table, null, 2),
  );
  writeFileSync(join(launcher, "bin", "tracker.js"), source);
  chmodSync(join(launcher, "bin", "tracker.js"), 0o755);
  writeJson(join(launcher, "package.json"), {
    name: NPM_PACKAGE,
    version: opts.version,
    ...COMMON,
    bin: { tracker: "bin/tracker.js" },
    files: ["bin/tracker.js"],
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(platforms.map((p) => [p.name, opts.version])),
  });
  writeFileSync(
    join(launcher, "README.md"),
    "# tracker-cli\n\nThe `tracker` command-line client. `npm install -g tracker-cli`, then `tracker --help`.\n" +
      "Upgrade with `tracker upgrade` (runs `npm install -g tracker-cli@<version>`).\n",
  );

  const written: string[] = [];
  for (const p of platforms) {
    const binary = join(opts.releaseDir, p.target.asset);
    if (!existsSync(binary)) continue;
    const dir = join(opts.outDir, p.key);
    const exe = p.target.os === "windows" ? "tracker.exe" : "tracker";
    mkdirSync(join(dir, "bin"), { recursive: true });
    copyFileSync(binary, join(dir, "bin", exe));
    chmodSync(join(dir, "bin", exe), 0o755);
    writeJson(join(dir, "package.json"), {
      name: p.name,
      version: opts.version,
      ...COMMON,
      description: `The tracker binary for ${p.key}`,
      os: [p.target.os === "windows" ? "win32" : p.target.os],
      cpu: [p.target.arch],
      ...(p.target.os === "linux" ? { libc: [p.target.musl ? "musl" : "glibc"] } : {}),
      files: [`bin/${exe}`],
      preferUnplugged: true,
    });
    written.push(dir);
  }
  return { launcher, platforms: written };
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const root = resolve(import.meta.dir, "../..");
  const out = buildNpmPackages({
    releaseDir: resolve(option(args, "--release") ?? join(root, "dist/release")),
    outDir: resolve(option(args, "--out") ?? join(root, "dist/npm")),
    version: option(args, "--version") ?? pkg.version,
  });
  process.stderr.write(`npm packages: ${out.launcher} and ${out.platforms.length} platform packages\n`);
}
