import { afterAll, beforeAll, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
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

const INSTALL_SH = resolve(import.meta.dir, "../../install.sh");
const ZERO_SHA = "0".repeat(64);

let rel: ReleaseServer;
beforeAll(async () => {
  rel = startReleaseServer();
  const [old, current] = await Promise.all([testBinary("0.2.0"), testBinary("0.3.0")]);
  rel.publish("0.2.0", await releaseFiles("0.2.0", { path: old }));
  rel.publish("0.4.0", await releaseFiles("0.4.0", { path: current }, { sums: badSums() }));
  rel.publish("0.3.0", await releaseFiles("0.3.0", { path: current }));
});
afterAll(() => {
  rel.stop();
  cleanupScratch();
});
beforeEach(() => rel.reset());

function badSums(): Record<string, string> {
  return Object.fromEntries(hostAssets().map((a) => [a, ZERO_SHA]));
}

interface Home {
  home: string;
  config: string;
  bin: string;
}

function newHome(): Home {
  const home = scratchDir("tracker-install-home-");
  return { home, config: join(home, "cfg"), bin: join(home, ".tracker", "bin") };
}

function install(h: Home, args: string[] = [], extra: Record<string, string> = {}, pathPrefix?: string) {
  const env = childEnv(
    h.home,
    { TRACKER_RELEASE_URL: rel.url, TRACKER_CONFIG_DIR: h.config, ...extra },
    pathPrefix,
  );
  return runProcess(["sh", INSTALL_SH, ...args], env, h.home);
}

async function installedVersion(binary: string): Promise<string> {
  const r = await runProcess([binary, "--version"], childEnv("/nonexistent"));
  return r.stdout.trim();
}

test("installs the latest release, verifies it, and runs cli setup", async () => {
  const h = newHome();
  const r = await install(h);
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toContain(`Installing tracker 0.3.0 (${hostAssets()[0]}`);
  expect(r.stderr).toContain(`tracker 0.3.0 is installed at ${h.bin}/tracker`);
  expect(await installedVersion(join(h.bin, "tracker"))).toBe("0.3.0");
  expect(rel.requests).toContain("GET /latest/download/manifest.json");
  expect(rel.requests).toContain("GET /download/v0.3.0/SHA256SUMS");
  // cli setup ran: PATH line in the login shell's rc, skill copy, install method recorded.
  expect(readFileSync(join(h.home, ".bashrc"), "utf8")).toBe(
    `# Added by tracker (tracker cli setup)\nexport PATH="${h.bin}:$PATH"\n`,
  );
  expect(r.stdout).toContain("PATH: created ~/.bashrc to add ~/.tracker/bin");
  expect(existsSync(join(h.config, "skills/tracker-cli/SKILL.md"))).toBe(true);
  const db = new Database(join(h.config, "tracker.db"), { readonly: true });
  expect(db.query("SELECT method, path, version FROM install_info").get()).toEqual({
    method: "curl",
    path: join(h.bin, "tracker"),
    version: "0.3.0",
  });
  db.close();
  expect(readdirSync(h.bin)).toEqual(["tracker"]);

  // Re-running is idempotent: same binary, the rc file still has one PATH line.
  const again = await install(h);
  expect(again.exitCode).toBe(0);
  expect(again.stdout).toContain("PATH: ~/.bashrc already adds ~/.tracker/bin");
  expect(readFileSync(join(h.home, ".bashrc"), "utf8").split("export PATH=").length).toBe(2);
  expect(readdirSync(h.bin)).toEqual(["tracker"]);
});

test("--version pins a release; TRACKER_INSTALL_DIR and --no-modify-path are honoured", async () => {
  const h = newHome();
  const dir = join(h.home, "opt", "bin");
  const r = await install(h, ["--version", "v0.2.0", "--no-modify-path"], { TRACKER_INSTALL_DIR: dir });
  expect(r.exitCode).toBe(0);
  expect(await installedVersion(join(dir, "tracker"))).toBe("0.2.0");
  expect(rel.requests).not.toContain("GET /latest/download/manifest.json");
  expect(r.stdout).toContain("PATH: not changed (--no-modify-path)");
  expect(existsSync(join(h.home, ".bashrc"))).toBe(false);
  expect(existsSync(h.bin)).toBe(false);
});

test("a checksum mismatch installs nothing and leaves the existing install untouched", async () => {
  const h = newHome();
  expect((await install(h, ["--version", "0.2.0"])).exitCode).toBe(0);
  const r = await install(h, ["--version", "0.4.0"]);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain(`error: checksum mismatch for ${hostAssets()[0]}: expected ${ZERO_SHA}, got `);
  expect(r.stderr).toContain("Nothing was installed.");
  expect(await installedVersion(join(h.bin, "tracker"))).toBe("0.2.0");
  expect(readdirSync(h.bin)).toEqual(["tracker"]);
});

test("a failed download or unknown version leaves the existing install untouched", async () => {
  const h = newHome();
  expect((await install(h, ["--version", "0.2.0"])).exitCode).toBe(0);
  for (const asset of hostAssets()) rel.fault(`/download/v0.3.0/${asset}`, { status: 403 });
  const failed = await install(h);
  expect(failed.exitCode).toBe(1);
  expect(failed.stderr).toContain(`error: could not download ${rel.url}/download/v0.3.0/tracker-`);
  const missing = await install(h, ["--version", "9.9.9"]);
  expect(missing.exitCode).toBe(1);
  expect(missing.stderr).toContain(`error: could not download ${rel.url}/download/v9.9.9/SHA256SUMS`);
  expect(await installedVersion(join(h.bin, "tracker"))).toBe("0.2.0");
  expect(readdirSync(h.bin)).toEqual(["tracker"]);
});

function fakeUname(dir: string, system: string, machine: string): string {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, "uname");
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$1" in\n  -s) echo ${system} ;;\n  -m) echo ${machine} ;;\n  *) echo ${system} ;;\nesac\n`,
  );
  chmodSync(script, 0o755);
  return dir;
}

test("an unknown operating system or CPU fails before any download", async () => {
  const h = newHome();
  const os = await install(h, [], {}, fakeUname(join(h.home, "fake-os"), "SunOS", "x86_64"));
  expect(os.exitCode).toBe(1);
  expect(os.stderr).toContain("error: unsupported operating system: SunOS");
  const cpu = await install(h, [], {}, fakeUname(join(h.home, "fake-cpu"), "Linux", "riscv64"));
  expect(cpu.exitCode).toBe(1);
  expect(cpu.stderr).toContain("error: unsupported CPU architecture: riscv64");
  expect(rel.requests).toEqual([]);
  expect(existsSync(h.bin)).toBe(false);
});

test("bad options are rejected with usage", async () => {
  const h = newHome();
  const r = await install(h, ["--frobnicate"]);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain("Usage: install.sh");
  expect(r.stderr).toContain("error: unknown option: --frobnicate");
  const v = await install(h, ["--version", "latest-ish"]);
  expect(v.exitCode).toBe(1);
  expect(v.stderr).toContain("error: --version must look like 1.2.3, got 'latest-ish'");
  expect(rel.requests).toEqual([]);
});

test("a plain-http release URL off this machine is refused before any download", async () => {
  const h = newHome();
  for (const url of [
    "http://mirror.invalid/releases",
    "http://127.0.0.1.mirror.invalid/r",
    "ftp://127.0.0.1/r",
    // The userinfo trick: the host is other-host, whatever the text starts with.
    "http://127.0.0.1:x@other-host/r",
    "http://localhost:80@other-host/r",
    "http://[::1]@other-host/r",
    "http://127.0.0.1:8080.other-host/r",
  ]) {
    const r = await install(h, [], { TRACKER_RELEASE_URL: url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `error: TRACKER_RELEASE_URL must use https (plain http only on 127.0.0.1, localhost or [::1]), got '${url}'`,
    );
  }
  expect(existsSync(h.bin)).toBe(false);
  expect(rel.requests).toEqual([]);
});
