import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BuiltRelease, buildRelease, releaseClientId, sha256File } from "../../script/build.ts";
import { generateSkill } from "../../script/generate-skill.ts";
import { buildNpmPackages, npmPlatforms } from "../../script/npm/build-packages.ts";
import { BREW_TARGETS, generateFormula } from "../../script/release/homebrew.ts";
import { EXIT_CODE_TABLE } from "../../src/lib/exit-codes.ts";
import { BUILD_TARGETS } from "../../src/lib/upgrade/platform.ts";
import { formatChecksums, parseChecksums } from "../../src/lib/upgrade/release.ts";
import { childEnv, hostAssets, runProcess, cleanupScratch, scratchDir } from "./helpers/binaries.ts";
import { type ReleaseServer, startReleaseServer } from "./helpers/release-server.ts";

// These tests compile binaries and spawn installers; a busy 2-core machine needs more than 5 s.
setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../..");
/** The OAuth client id this test's release is built with (a real release reads TRACKER_OAUTH_CLIENT_ID). */
const RELEASE_CLIENT_ID = "tracker-test-client-0123456789abcdef";

let rel: ReleaseServer;
let built: BuiltRelease;
beforeAll(async () => {
  rel = startReleaseServer();
  // The host target only (cross targets need runtimes from the registry); the release URL is compiled in.
  built = await buildRelease({
    outDir: scratchDir("tracker-release-"),
    version: "0.7.0",
    assets: [hostAssets()[0] as string],
    releaseUrl: rel.url,
    clientId: RELEASE_CLIENT_ID,
    useHostRuntime: true,
    log: () => {},
  });
  rel.publish(
    "0.7.0",
    Object.fromEntries(readdirSync(built.dir).map((f) => [f, { path: join(built.dir, f) }])),
  );
});
afterAll(() => {
  rel.stop();
  cleanupScratch();
});

test("a release build writes the binary, SHA256SUMS, manifest.json and install.sh", async () => {
  const asset = hostAssets()[0] as string;
  expect(readdirSync(built.dir).sort()).toEqual([asset, "SHA256SUMS", "install.sh", "manifest.json"].sort());
  const sha = await sha256File(join(built.dir, asset));
  expect(readFileSync(join(built.dir, "SHA256SUMS"), "utf8")).toBe(`${sha}  ${asset}\n`);
  expect(JSON.parse(readFileSync(join(built.dir, "manifest.json"), "utf8"))).toEqual({
    version: "0.7.0",
    assets: { [asset]: sha },
  });
  // The published install.sh defaults to the same release location as the binaries.
  expect(readFileSync(join(built.dir, "install.sh"), "utf8")).toBe(
    readFileSync(join(ROOT, "install.sh"), "utf8").replace(
      'DEFAULT_RELEASE_URL="https://github.com/tracker-cli/tracker/releases"',
      `DEFAULT_RELEASE_URL="${rel.url}"`,
    ),
  );
  const home0 = scratchDir("tracker-release-home-");
  const viaScript = await runProcess(
    ["sh", join(built.dir, "install.sh"), "--no-modify-path"],
    childEnv(home0, { TRACKER_CONFIG_DIR: join(home0, "cfg") }),
  );
  expect(viaScript.exitCode).toBe(0);
  expect(viaScript.stderr).toContain(`tracker 0.7.0 is installed at ${home0}/.tracker/bin/tracker`);
  const version = await runProcess([join(built.dir, asset), "--version"], childEnv("/nonexistent"));
  expect(version.stdout).toBe("0.7.0\n");
  // No TRACKER_RELEASE_URL: the compiled-in release location (the local server) is used.
  const home = scratchDir("tracker-release-home-");
  const check = await runProcess(
    [join(built.dir, asset), "upgrade", "--check", "--json"],
    childEnv(home, { TRACKER_CONFIG_DIR: join(home, "cfg") }),
  );
  expect(check.exitCode).toBe(0);
  expect(JSON.parse(check.stdout)).toMatchObject({
    currentVersion: "0.7.0",
    targetVersion: "0.7.0",
    updateAvailable: false,
  });
  expect(rel.requests).toContain("GET /latest/download/manifest.json");
});

test("npm: packages from `npm pack` install offline with npm install -g and run", async () => {
  const work = scratchDir("tracker-npm-");
  const pkgs = buildNpmPackages({ releaseDir: built.dir, outDir: join(work, "pkgs"), version: "0.7.0" });
  expect(pkgs.platforms.length).toBe(1);
  const launcherPkg = JSON.parse(readFileSync(join(pkgs.launcher, "package.json"), "utf8"));
  expect(launcherPkg).toMatchObject({
    name: "tracker-cli",
    version: "0.7.0",
    bin: { tracker: "bin/tracker.js" },
  });
  expect(launcherPkg.optionalDependencies).toEqual(
    Object.fromEntries(npmPlatforms().map((p) => [p.name, "0.7.0"])),
  );
  expect(Object.keys(launcherPkg.optionalDependencies)).toEqual([
    "@tracker-cli/linux-x64",
    "@tracker-cli/linux-arm64",
    "@tracker-cli/darwin-x64",
    "@tracker-cli/darwin-arm64",
    "@tracker-cli/windows-x64",
    "@tracker-cli/linux-x64-musl",
    "@tracker-cli/linux-arm64-musl",
  ]);
  const platformPkg = JSON.parse(readFileSync(join(pkgs.platforms[0] as string, "package.json"), "utf8"));
  expect(platformPkg.bin).toBeUndefined();
  expect(platformPkg.os).toEqual([process.platform]);
  expect(platformPkg.cpu).toEqual([process.arch]);

  const env = childEnv(work, {
    npm_config_cache: join(work, "npm-cache"),
    npm_config_update_notifier: "false",
  });
  const tarballs: string[] = [];
  for (const dir of [pkgs.launcher, pkgs.platforms[0] as string]) {
    const packed = await runProcess(["npm", "pack", dir, "--pack-destination", work, "--silent"], env, work);
    expect(packed.exitCode).toBe(0);
    tarballs.push(join(work, packed.stdout.trim().split("\n").at(-1) as string));
  }
  const prefix = join(work, "prefix");
  const installed = await runProcess(
    ["npm", "install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", ...tarballs],
    env,
    work,
  );
  expect(installed.exitCode).toBe(0);
  const run = await runProcess([join(prefix, "bin", "tracker"), "--version"], env);
  expect(run).toEqual({ exitCode: 0, stdout: "0.7.0\n", stderr: "" });
  // Through the launcher the binary lives in node_modules, so upgrade detects npm.
  const check = await runProcess([join(prefix, "bin", "tracker"), "upgrade", "--check", "--json"], {
    ...env,
    TRACKER_CONFIG_DIR: join(work, "cfg"),
  });
  expect(check.exitCode).toBe(0);
  expect(JSON.parse(check.stdout)).toMatchObject({ method: "npm", updateAvailable: false });
});

test("Homebrew formula names every macOS/Linux URL and checksum of the release", () => {
  const sums = Object.fromEntries(BUILD_TARGETS.map((t, i) => [t.asset, i.toString(16).padStart(64, "0")]));
  const formula = generateFormula({
    version: "1.2.3",
    releaseUrl: "https://releases.example.com/tracker/",
    sums: parseChecksums(formatChecksums(sums)),
  });
  expect(BREW_TARGETS.map((t) => t.asset)).toEqual([
    "tracker-linux-x64",
    "tracker-linux-arm64",
    "tracker-darwin-x64",
    "tracker-darwin-arm64",
  ]);
  for (const t of BREW_TARGETS) {
    expect(formula).toContain(
      `url "https://releases.example.com/tracker/download/v1.2.3/${t.asset}"\n      sha256 "${sums[t.asset]}"\n`,
    );
  }
  expect(formula.match(/^\s+url /gm)?.length).toBe(4);
  expect(formula).toContain('  version "1.2.3"\n');
  expect(formula).toContain('system bin/"tracker", "cli", "setup", "--method", "brew", "--no-modify-path"');
  const { "tracker-darwin-arm64": _dropped, ...partial } = sums;
  expect(() => generateFormula({ version: "1.2.3", releaseUrl: "https://x", sums: partial })).toThrow(
    "SHA256SUMS of 1.2.3 has no tracker-darwin-arm64",
  );
});

test("skill file: generated content covers commands, auth and exit codes; --check fails on a stale file", async () => {
  const text = generateSkill();
  expect(text).toStartWith("---\nname: tracker-cli\ndescription: ");
  for (const cmd of [
    "tracker auth login",
    "tracker issue list",
    "tracker trace list",
    "tracker cli setup",
    "tracker upgrade",
  ]) {
    expect(text).toContain(`### \`${cmd}`);
  }
  expect(text).toContain("`-n/--limit=25`");
  // Agents read the whole file into their context: it stays small (about 6,000 tokens for ~80
  // commands; it was 12 KB for ~25 commands, 16 KB for ~40, before incidents, symbols and windows).
  expect(Buffer.byteLength(text)).toBeLessThan(24 * 1024);
  expect(text).toContain("TRACKER_AUTH_TOKEN");
  for (const e of EXIT_CODE_TABLE) expect(text).toContain(`| ${e.code} | ${e.name} |`);
  expect(generateSkill()).toBe(text);

  const dir = scratchDir("tracker-skill-");
  const file = join(dir, "SKILL.md");
  const gen = await runProcess(
    ["bun", "run", "script/generate-skill.ts", "--file", file],
    childEnv(dir),
    ROOT,
  );
  expect(gen.exitCode).toBe(0);
  expect(readFileSync(file, "utf8")).toBe(text);
  const fresh = await runProcess(
    ["bun", "run", "script/generate-skill.ts", "--check", "--file", file],
    childEnv(dir),
    ROOT,
  );
  expect(fresh.exitCode).toBe(0);
  writeFileSync(file, text.replace("`-n/--limit=25`", "`-n/--limit=50`"));
  const stale = await runProcess(
    ["bun", "run", "script/generate-skill.ts", "--check", "--file", file],
    childEnv(dir),
    ROOT,
  );
  expect(stale.exitCode).toBe(1);
  expect(stale.stderr).toBe(`${file} is stale: run \`bun run generate:skill\` and commit the result.\n`);
});

test("the hosted OAuth client id is compiled into release binaries; a release without one is refused first", async () => {
  const asset = hostAssets()[0] as string;
  const bytes = await Bun.file(join(built.dir, asset)).bytes();
  expect(Buffer.from(bytes).includes(RELEASE_CLIENT_ID)).toBe(true);
  const saved = process.env.TRACKER_OAUTH_CLIENT_ID;
  delete process.env.TRACKER_OAUTH_CLIENT_ID;
  try {
    expect(() => releaseClientId(undefined)).toThrow("A release needs the OAuth client ID");
    expect(() => releaseClientId("not a client id!")).toThrow("does not look like a client ID");
    const out = join(scratchDir("tracker-release-noid-"), "out");
    await expect(
      buildRelease({ outDir: out, version: "0.7.1", assets: [asset], useHostRuntime: true, log: () => {} }),
    ).rejects.toThrow("TRACKER_OAUTH_CLIENT_ID");
    expect(readdirSync(join(out, "..")).includes("out")).toBe(false);
  } finally {
    if (saved !== undefined) process.env.TRACKER_OAUTH_CLIENT_ID = saved;
  }
});
