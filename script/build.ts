/**
 * Compiles standalone executables.
 *
 *   bun run build                      this platform only → dist/tracker
 *   bun run build:all                  every release target → dist/release/ (+ SHA256SUMS, manifest.json, install.sh)
 *   options: --out <dir>  --version <semver>  --release-url <url>  --targets <asset,asset,...>
 *
 * Cross-compiling needs the Bun runtime of each target. Bun would download it from GitHub; we take
 * the same runtime from the npm registry (`@oven/bun-<os>-<arch>[-musl][-baseline]`, exact Bun
 * version) through `npm pack`, cached under node_modules/.cache/, and pass it with
 * --compile-executable-path. The host target uses the running Bun and needs no download.
 * `.env` and bunfig.toml autoloading are off in the binary, so a project's files can never inject
 * settings or tokens into it.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { BUILD_TARGETS, type BuildTarget, findTarget, hostAsset } from "../src/lib/upgrade/platform.ts";
import { buildManifest, CHECKSUMS_NAME, formatChecksums, MANIFEST_NAME } from "../src/lib/upgrade/release.ts";

const ROOT = resolve(import.meta.dir, "..");
/** Where downloaded Bun runtimes are cached between builds. */
export const RUNTIME_CACHE_DIR = resolve(ROOT, "node_modules/.cache/tracker-bun-runtimes");

/**
 * Flags shared by every compiled target. ESM with code splitting keeps lazily imported modules
 * (command implementations, the MCP SDK with zod and ajv) in chunks that load only when imported:
 * without it the whole bundle is loaded at every start, and adding the MCP SDK cost `--version`
 * about 1.5 ms (measured interleaved: 8.1 → 9.9 ms; with splitting 6.9 ms).
 */
export const COMPILE_FLAGS = [
  "--compile",
  "--format=esm",
  "--splitting",
  "--minify",
  "--bytecode",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
] as const;

/** Compiles src/bin.ts to `outfile`, optionally for another target with a given bun executable. */
export async function compile(
  outfile: string,
  opts: { target?: string; executablePath?: string; defines?: Record<string, string> } = {},
): Promise<void> {
  const args = [
    process.execPath,
    "build",
    resolve(ROOT, "src/bin.ts"),
    ...COMPILE_FLAGS,
    "--outfile",
    outfile,
  ];
  if (opts.target) args.push(`--target=${opts.target}`);
  if (opts.executablePath) args.push(`--compile-executable-path=${opts.executablePath}`);
  for (const [k, v] of Object.entries(opts.defines ?? {})) args.push(`--define=${k}=${JSON.stringify(v)}`);
  const proc = Bun.spawn(args, { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`bun build failed for ${outfile}:\n${stderr}`);
}

/** The build-time constants of one binary (see src/lib/version.ts, platform.ts, release.ts). */
export function buildDefines(opts: {
  version?: string;
  asset?: string;
  releaseUrl?: string;
  clientId?: string;
}): Record<string, string> {
  const defines: Record<string, string> = {};
  if (opts.clientId) defines.TRACKER_BUILD_CLIENT_ID = opts.clientId;
  if (opts.version) defines.TRACKER_BUILD_VERSION = opts.version;
  if (opts.asset) defines.TRACKER_BUILD_ASSET = opts.asset;
  if (opts.releaseUrl) defines.TRACKER_RELEASE_BASE_URL = opts.releaseUrl.replace(/\/+$/, "");
  return defines;
}

function hostTargetAsset(): string | undefined {
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header?.glibcVersionRuntime;
  return hostAsset({
    platform: process.platform,
    arch: process.arch,
    musl: process.platform === "linux" && !glibc,
  });
}

async function run(cmd: string[], cwd: string): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${code}):\n${stderr}`);
}

/**
 * Path of the Bun runtime for a target, fetched from npm once and cached. With `useHost`, the host
 * target uses the running Bun instead (offline test builds); releases never do, because the npm
 * `bun` package may have installed a different variant (baseline) on this machine.
 */
export async function runtimeFor(
  t: BuildTarget,
  useHost = false,
  bunVersion: string = Bun.version,
): Promise<string> {
  if (useHost && t.asset === hostTargetAsset()) return process.execPath;
  const exe = t.os === "windows" ? "bun.exe" : "bun";
  const dir = join(RUNTIME_CACHE_DIR, bunVersion, t.runtimePackage.replace("/", "__"));
  const bin = join(dir, "package", "bin", exe);
  if (existsSync(bin)) return bin;
  mkdirSync(RUNTIME_CACHE_DIR, { recursive: true });
  const work = mkdtempSync(join(RUNTIME_CACHE_DIR, ".fetch-"));
  try {
    await run(
      ["npm", "pack", `${t.runtimePackage}@${bunVersion}`, "--pack-destination", work, "--silent"],
      work,
    );
    const tgz = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${t.runtimePackage}@${bunVersion} produced no tarball`);
    await run(["tar", "-xzf", tgz], work);
    if (!existsSync(join(work, "package", "bin", exe))) {
      throw new Error(`${t.runtimePackage}@${bunVersion} has no bin/${exe}`);
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await run(["mv", join(work, "package"), join(dir, "package")], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** Options of buildRelease. */
export interface ReleaseOptions {
  outDir: string;
  version: string;
  /** Asset names to build (default: all of BUILD_TARGETS). */
  assets?: readonly string[];
  releaseUrl?: string;
  /**
   * The public OAuth client id of tracker's application on sentry.io (required: a release without
   * it could not log anyone in with the device flow). Default: TRACKER_OAUTH_CLIENT_ID.
   */
  clientId?: string;
  /** Compile the host target with the running Bun (no download); for offline tests. */
  useHostRuntime?: boolean;
  /** Log progress lines (default: stderr). */
  log?: (line: string) => void;
}

/** A built release: its directory and each asset's sha256. */
export interface BuiltRelease {
  dir: string;
  version: string;
  sums: Record<string, string>;
}

/** sha256 of a file, lower-case hex. */
export async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

/** Writes SHA256SUMS and manifest.json for the given checksums into a release directory. */
export function writeReleaseIndex(dir: string, version: string, sums: Record<string, string>): void {
  writeFileSync(join(dir, CHECKSUMS_NAME), formatChecksums(sums));
  writeFileSync(join(dir, MANIFEST_NAME), `${JSON.stringify(buildManifest(version, sums), null, 2)}\n`);
}

/** install.sh as published: its default release location is the one compiled into the binaries. */
export function installScript(releaseUrl: string | undefined): string {
  const text = readFileSync(resolve(ROOT, "install.sh"), "utf8");
  if (!releaseUrl) return text;
  const line = /^DEFAULT_RELEASE_URL=".*"$/m;
  if (!line.test(text)) throw new Error("install.sh has no DEFAULT_RELEASE_URL line");
  return text.replace(line, `DEFAULT_RELEASE_URL="${releaseUrl.replace(/\/+$/, "")}"`);
}

/** Compiles every requested target into outDir, then writes SHA256SUMS, manifest.json and install.sh beside them. */
/** Client ids are short URL-safe tokens (Sentry issues 64 hex characters). */
const CLIENT_ID_RE = /^[A-Za-z0-9_-]{16,128}$/;

/** The release's OAuth client id, or an error saying how to provide it (checked before any build). */
export function releaseClientId(given: string | undefined): string {
  const id = (given ?? process.env.TRACKER_OAUTH_CLIENT_ID ?? "").trim();
  if (!id) {
    throw new Error(
      "A release needs the OAuth client ID of tracker's application on sentry.io: set TRACKER_OAUTH_CLIENT_ID (it is public; the release workflow reads it from a repository variable).",
    );
  }
  if (!CLIENT_ID_RE.test(id))
    throw new Error(`TRACKER_OAUTH_CLIENT_ID does not look like a client ID: '${id}'.`);
  return id;
}

export async function buildRelease(opts: ReleaseOptions): Promise<BuiltRelease> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clientId = releaseClientId(opts.clientId);
  const targets = (opts.assets ?? BUILD_TARGETS.map((t) => t.asset)).map((name) => {
    const t = findTarget(name);
    if (!t)
      throw new Error(`Unknown target '${name}'. Known: ${BUILD_TARGETS.map((x) => x.asset).join(", ")}`);
    return t;
  });
  mkdirSync(opts.outDir, { recursive: true });
  const sums: Record<string, string> = {};
  for (const t of targets) {
    const started = performance.now();
    const outfile = join(opts.outDir, t.asset);
    await compile(outfile, {
      target: t.bunTarget,
      executablePath: await runtimeFor(t, opts.useHostRuntime),
      defines: buildDefines({ version: opts.version, asset: t.asset, releaseUrl: opts.releaseUrl, clientId }),
    });
    sums[t.asset] = await sha256File(outfile);
    log(`built ${t.asset} in ${Math.round(performance.now() - started)} ms`);
  }
  writeReleaseIndex(opts.outDir, opts.version, sums);
  writeFileSync(join(opts.outDir, "install.sh"), installScript(opts.releaseUrl));
  return { dir: opts.outDir, version: opts.version, sums };
}

/** What `bun run build` says it built: the binary's path, version, platform and size. */
export function builtLine(b: {
  path: string;
  version: string;
  asset: string | undefined;
  bytes: number;
}): string {
  const mib = (b.bytes / 1024 / 1024).toFixed(1);
  return `Built ${b.path}: tracker ${b.version} for ${b.asset ?? "this platform"}, ${mib} MiB`;
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const version = option(args, "--version") ?? pkg.version;
  const releaseUrl = option(args, "--release-url");
  if (args.includes("--all") || option(args, "--targets")) {
    const outDir = resolve(option(args, "--out") ?? resolve(ROOT, "dist/release"));
    const assets = option(args, "--targets")?.split(",").filter(Boolean);
    const built = await buildRelease({ outDir, version, assets, releaseUrl });
    process.stderr.write(
      `Release ${built.version}: ${Object.keys(built.sums).length} binaries in ${built.dir}\n`,
    );
  } else {
    const out = resolve(option(args, "--out") ?? resolve(ROOT, "dist/tracker"));
    mkdirSync(resolve(out, ".."), { recursive: true });
    await compile(out, { defines: buildDefines({ version: option(args, "--version"), releaseUrl }) });
    const rel = relative(process.cwd(), out);
    const path = rel !== "" && !rel.startsWith("..") ? rel : out;
    const bytes = statSync(out).size;
    process.stderr.write(`${builtLine({ path, version, asset: hostTargetAsset(), bytes })}\n`);
  }
}
