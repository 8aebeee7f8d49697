import { afterAll, beforeAll, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { sha256File } from "../../script/build.ts";
import {
  childEnv,
  hostAssets,
  releaseFiles,
  runProcess,
  testBinary,
  cleanupScratch,
  scratchDir,
} from "./helpers/binaries.ts";
import { type ReleaseServer, startReleaseServer } from "./helpers/release-server.ts";

// These tests compile binaries and spawn installers; a busy 2-core machine needs more than 5 s.
setDefaultTimeout(60_000);

let rel: ReleaseServer;
let oldBin: string;
let oldSha: string;
beforeAll(async () => {
  rel = startReleaseServer();
  const [old, current] = await Promise.all([testBinary("0.2.0"), testBinary("0.3.0")]);
  oldBin = old;
  oldSha = await sha256File(old);
  rel.publish("0.2.0", await releaseFiles("0.2.0", { path: old }));
  rel.publish("0.4.0", await releaseFiles("0.4.0", { path: current }, { sums: sumsOf("f".repeat(64)) }));
  rel.publish("0.5.0", await releaseFiles("0.5.0", { data: "#!/bin/sh\necho broken >&2\nexit 3\n" }));
  rel.publish("0.3.0", await releaseFiles("0.3.0", { path: current }));
});
afterAll(() => {
  rel.stop();
  cleanupScratch();
});
beforeEach(() => rel.reset());

function sumsOf(sha: string): Record<string, string> {
  return Object.fromEntries(hostAssets().map((a) => [a, sha]));
}

interface Install {
  home: string;
  config: string;
  binary: string;
}

/** A copy of the 0.2.0 binary at `rel` under a fresh home (default: the install script's directory). */
function installOld(relPath = ".tracker/bin/tracker", link = false): Install {
  const home = scratchDir("tracker-upgrade-home-");
  const binary = join(home, relPath);
  mkdirSync(dirname(binary), { recursive: true });
  // Hard links are enough where the test never replaces the file (package-manager installs).
  if (link) linkSync(oldBin, binary);
  else copyFileSync(oldBin, binary);
  return { home, config: join(home, "cfg"), binary };
}

function upgrade(i: Install, args: string[], extra: Record<string, string> = {}, pathPrefix?: string) {
  const env = childEnv(
    i.home,
    { TRACKER_RELEASE_URL: rel.url, TRACKER_CONFIG_DIR: i.config, ...extra },
    pathPrefix,
  );
  return runProcess([i.binary, "upgrade", ...args], env, i.home);
}

async function versionOf(binary: string): Promise<string> {
  return (await runProcess([binary, "--version"], childEnv("/nonexistent"))).stdout.trim();
}

async function expectUntouched(i: Install): Promise<void> {
  expect(await sha256File(i.binary)).toBe(oldSha);
  expect(readdirSync(dirname(i.binary))).toEqual(["tracker"]);
}

test("--check reports an available update without changing anything", async () => {
  const i = installOld();
  const r = await upgrade(i, ["--check"]);
  expect(r).toEqual({
    exitCode: 0,
    stdout: "Update available: tracker 0.2.0 → 0.3.0.\n",
    stderr: "Run `tracker upgrade` to install it.\n",
  });
  const j = await upgrade(i, ["--check", "--json"]);
  expect(j.exitCode).toBe(0);
  expect(JSON.parse(j.stdout)).toEqual({
    currentVersion: "0.2.0",
    targetVersion: "0.3.0",
    updateAvailable: true,
    method: "curl",
    upgraded: false,
    path: i.binary,
  });
  expect(rel.requests).toEqual([
    "GET /latest/download/manifest.json",
    "GET /download/v0.3.0/manifest.json",
    "GET /latest/download/manifest.json",
    "GET /download/v0.3.0/manifest.json",
  ]);
  await expectUntouched(i);
});

test("curl install: swaps the binary, then says it is up to date", async () => {
  const i = installOld();
  const r = await upgrade(i, []);
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe(`Upgraded tracker 0.2.0 → 0.3.0 (${i.binary}).\n`);
  expect(await versionOf(i.binary)).toBe("0.3.0");
  expect(readdirSync(dirname(i.binary))).toEqual(["tracker"]);
  expect(rel.requests).toContain(`GET /download/v0.3.0/${hostAssets()[0]}`);
  // The new binary refreshed the skill file and the install record.
  expect(readFileSync(join(i.config, "skills/tracker-cli/SKILL.md"), "utf8")).toStartWith(
    "---\nname: tracker-cli\n",
  );

  const again = await runProcess(
    [i.binary, "upgrade"],
    childEnv(i.home, { TRACKER_RELEASE_URL: rel.url, TRACKER_CONFIG_DIR: i.config }),
  );
  expect(again).toEqual({
    exitCode: 0,
    stdout: "tracker 0.3.0 is already up to date (latest: 0.3.0).\n",
    stderr: "",
  });
});

test("a pinned version is installed even when it is older; v-prefix accepted", async () => {
  const i = installOld();
  expect((await upgrade(i, ["0.3.0"])).exitCode).toBe(0);
  const down = await runProcess(
    [i.binary, "upgrade", "v0.2.0"],
    childEnv(i.home, { TRACKER_RELEASE_URL: rel.url, TRACKER_CONFIG_DIR: i.config }),
  );
  expect(down.exitCode).toBe(0);
  expect(down.stdout).toBe(`Upgraded tracker 0.3.0 → 0.2.0 (${i.binary}).\n`);
  expect(await versionOf(i.binary)).toBe("0.2.0");
  expect(rel.requests).not.toContain("GET /latest/download/manifest.json");
});

test("checksum mismatch: UpgradeError, old binary intact, nothing left behind", async () => {
  const i = installOld();
  const r = await upgrade(i, ["0.4.0"]);
  expect(r.exitCode).toBe(50);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith(
    `Error: Checksum mismatch for ${hostAssets()[0]}: expected ${"f".repeat(64)}, got `,
  );
  await expectUntouched(i);
});

test("self-test failure: the new binary is rejected, old binary intact", async () => {
  const i = installOld();
  const r = await upgrade(i, ["0.5.0"]);
  expect(r.exitCode).toBe(50);
  expect(r.stderr).toBe(
    "Error: The downloaded tracker 0.5.0 failed its self-test: `--version` exited with code 3.\n\nThe installed binary was not changed.\n",
  );
  await expectUntouched(i);
});

test("interrupted download: network_error (31, a network failure), old binary intact", async () => {
  const i = installOld();
  rel.fault(`/download/v0.3.0/${hostAssets()[0]}`, { interruptAfterBytes: 4096 });
  const r = await upgrade(i, []);
  expect(r.exitCode).toBe(31);
  expect(r.stderr).toStartWith(`Error: The download of ${hostAssets()[0]} was interrupted`);
  await expectUntouched(i);
});

test("unknown version: version_not_found", async () => {
  const i = installOld();
  const r = await upgrade(i, ["9.9.9"]);
  expect(r).toEqual({
    exitCode: 50,
    stdout: "",
    stderr: `Error: Version 9.9.9 of tracker was not found at ${rel.url}.\n\nCheck the version number, or run \`tracker upgrade\` without a version to get the latest.\n`,
  });
  await expectUntouched(i);
});

test("unreachable release server (31) and server errors (50): network_error", async () => {
  const i = installOld();
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const closed = `http://127.0.0.1:${probe.port}`;
  probe.stop(true);
  const r = await upgrade(i, [], { TRACKER_RELEASE_URL: closed });
  expect(r.exitCode).toBe(31);
  const check = await upgrade(i, ["--check"], { TRACKER_RELEASE_URL: closed });
  expect(check.exitCode).toBe(31);
  expect(check.stderr).toStartWith(`Error: Could not reach the release server at ${closed}: `);
  expect(r.stderr).toStartWith(`Error: Could not reach the release server at ${closed}: `);
  expect(r.stderr).toContain("set TRACKER_RELEASE_URL to a reachable mirror");
  rel.fault("/download/v0.3.0/manifest.json", { status: 503 });
  const s = await upgrade(i, ["--check"]);
  expect(s.exitCode).toBe(50);
  expect(s.stderr).toStartWith(
    `Error: The release server answered 503 for ${rel.url}/latest/download/manifest.json.`,
  );
  await expectUntouched(i);
});

test("a binary outside any known install location: unknown_method with the manual way", async () => {
  const i = installOld("ci-image/usr/local/bin/tracker");
  const r = await upgrade(i, []);
  expect(r.exitCode).toBe(50);
  expect(r.stderr).toContain(`Error: Cannot tell how tracker at ${i.binary} was installed`);
  expect(r.stderr).toContain(`download ${rel.url}/latest/download/${hostAssets()[0]}`);
  expect(r.stderr).toContain("Pass --method curl, npm or brew, e.g. `tracker upgrade --method curl`.");
  expect(rel.requests).toEqual([]);
  // A named version is checked first, and the hint repeats it with the flag to add.
  const unknown = await upgrade(i, ["9.9.9"]);
  expect(unknown.exitCode).toBe(50);
  expect(unknown.stderr).toStartWith("Error: Version 9.9.9 of tracker was not found");
  const pinned = await upgrade(i, ["0.3.0"]);
  expect(pinned.exitCode).toBe(50);
  expect(pinned.stderr).toContain("e.g. `tracker upgrade 0.3.0 --method curl`");
  // --check still answers; --method curl forces the install-script path.
  expect(await upgrade(i, ["--check"])).toEqual({
    exitCode: 0,
    stdout: "Update available: tracker 0.2.0 → 0.3.0.\n",
    stderr: `Download ${rel.url}/download/v0.3.0/${hostAssets()[0]} to install it.\n`,
  });
  const forced = await upgrade(i, ["--method", "curl"]);
  expect(forced.exitCode).toBe(0);
  expect(await versionOf(i.binary)).toBe("0.3.0");
});

test("an install recorded by `cli setup --method curl` is upgraded in place", async () => {
  const i = installOld("apps/tracker");
  const env = childEnv(i.home, { TRACKER_RELEASE_URL: rel.url, TRACKER_CONFIG_DIR: i.config });
  const setup = await runProcess([i.binary, "cli", "setup", "--method", "curl", "--no-modify-path"], env);
  expect(setup.exitCode).toBe(0);
  const r = await upgrade(i, []);
  expect(r.exitCode).toBe(0);
  expect(await versionOf(i.binary)).toBe("0.3.0");
});

/** A stub executable that records its arguments, one run per line, and exits with `code`. */
function stub(dir: string, name: string, code = 0, output = ""): string {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, `${name}.log`);
  writeFileSync(
    join(dir, name),
    `#!/bin/sh\necho "$*" >> "${log}"\n${output ? `echo "${output}" >&2\n` : ""}exit ${code}\n`,
  );
  chmodSync(join(dir, name), 0o755);
  return log;
}

test("npm install (binary inside a global node_modules): runs npm install -g", async () => {
  const i = installOld("prefix/lib/node_modules/@tracker-cli/linux-x64/bin/tracker", true);
  const stubs = join(i.home, "stubs");
  const log = stub(stubs, "npm");
  const r = await upgrade(i, [], {}, stubs);
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe("Upgraded tracker 0.2.0 → 0.3.0 (npm).\n");
  expect(r.stderr).toBe("Running npm install -g tracker-cli@0.3.0\n");
  expect(readFileSync(log, "utf8")).toBe("install -g tracker-cli@0.3.0\n");
  const pinned = await upgrade(i, ["0.2.0"], {}, stubs);
  expect(pinned.stdout).toBe("tracker 0.2.0 is already up to date.\n");
  expect(readFileSync(log, "utf8")).toBe("install -g tracker-cli@0.3.0\n");
});

test("npm failure is execution_failed with the end of npm's output", async () => {
  const i = installOld("prefix/lib/node_modules/@tracker-cli/linux-x64/bin/tracker", true);
  const stubs = join(i.home, "stubs");
  stub(stubs, "npm", 1, "npm ERR! code EACCES");
  const r = await upgrade(i, [], {}, stubs);
  expect(r.exitCode).toBe(50);
  expect(r.stderr).toBe(
    "Running npm install -g tracker-cli@0.3.0\nError: `npm install -g tracker-cli@0.3.0` failed with exit code 1.\n\nIts output ended with:\nnpm ERR! code EACCES\n",
  );
});

test("Homebrew install (under a Cellar, started through the bin symlink): runs brew upgrade", async () => {
  const i = installOld("homebrew/Cellar/tracker/0.2.0/bin/tracker", true);
  const link = join(i.home, "homebrew/bin/tracker");
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(i.binary, link);
  const stubs = join(i.home, "stubs");
  const log = stub(stubs, "brew");
  const viaLink = { ...i, binary: link };
  const r = await upgrade(viaLink, [], {}, stubs);
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe("Upgraded tracker 0.2.0 → 0.3.0 (Homebrew).\n");
  expect(readFileSync(log, "utf8")).toBe("upgrade tracker-cli/tap/tracker\n");
  const pinned = await upgrade(viaLink, ["0.3.0"], {}, stubs);
  expect(pinned.exitCode).toBe(50);
  expect(pinned.stderr).toStartWith("Error: Homebrew cannot install a specific version of tracker.\n");
  expect(readFileSync(log, "utf8")).toBe("upgrade tracker-cli/tap/tracker\n");
});

test("a malformed version argument is a validation error", async () => {
  const i = installOld();
  const r = await upgrade(i, ["latest-please"]);
  expect(r).toEqual({
    exitCode: 21,
    stdout: "",
    stderr: "Error: Version must look like 1.2.3 (optionally v1.2.3), got 'latest-please'.\n",
  });
});
