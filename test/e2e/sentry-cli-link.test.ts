/**
 * `tracker cli setup --sentry-cli-link [dir]` (a real process: the link's target is the running
 * entry point, or the compiled binary under TRACKER_TEST_BINARY): created exclusively, left alone
 * when it is already ours, an existing sentry-cli replaced only with --force.
 */
import { describe, expect, test } from "bun:test";
import { lstatSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../helpers/cli.ts";
import { sentryCliTarget } from "../helpers/sentry-cli-scripts.ts";

const setup = (dir: string, ...more: string[]) =>
  runCli(["cli", "setup", "--sentry-cli-link", dir, "--no-modify-path", "--no-agent-skills", ...more], {
    subprocess: true,
  });

describe("cli setup --sentry-cli-link", () => {
  test("creates <dir>/sentry-cli → tracker; started by that name it answers as sentry-cli", async () => {
    const dir = tempDir();
    const r = await setup(dir, "--json");
    expect(r.exitCode).toBe(0);
    const link = join(dir, "sentry-cli");
    expect(JSON.parse(r.stdout).sentryCliLink).toEqual({
      path: link,
      target: sentryCliTarget(),
      status: "created",
    });
    expect(readlinkSync(link)).toBe(sentryCliTarget());
    const proc = Bun.spawnSync([link, "--version"], {
      env: { ...process.env, TRACKER_CONFIG_DIR: tempDir() },
    });
    expect(proc.stdout.toString()).toBe("sentry-cli 2.58.6\n");
    const again = await setup(dir);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain(`sentry-cli: unchanged ${link}`);
  });

  test("a real sentry-cli is left alone (exit 20) unless --force, which replaces it by rename", async () => {
    const dir = tempDir();
    const link = join(dir, "sentry-cli");
    writeFileSync(link, "#!/bin/sh\necho real sentry-cli\n", { mode: 0o755 });
    const r = await setup(dir);
    expect(r.exitCode).toBe(20);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(
      `Error: ${link} already exists: a file (a real sentry-cli?). tracker leaves it alone.`,
    );
    expect(r.stderr).toContain("--force");
    expect(readFileSync(link, "utf8")).toContain("real sentry-cli");
    const forced = await setup(dir, "--force");
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain(`sentry-cli: replaced ${link}`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(sentryCliTarget());
  });

  test("a directory that does not exist: exit 20, nothing created", async () => {
    const dir = join(tempDir(), "missing");
    const r = await setup(dir);
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toStartWith(`Error: ${dir} is not a directory.`);
  });
});
