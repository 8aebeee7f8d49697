/**
 * Issue 30: workspace files that are not files. A `.sentryclirc` linked to /proc/self/pagemap
 * (stat says 0 bytes; reading it allocates gigabytes), a `sentry.properties` FIFO, `.env` files
 * that are a FIFO or a /proc link, and `event send --logfile <fifo>` (blocked for ever): each is
 * passed over or refused at once. Runs as child processes, so a hang fails by the timeout.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanTree } from "../../src/lib/dsn/scan.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

function mkfifo(path: string): void {
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
}

const hasProc = () => Bun.spawnSync(["test", "-e", "/proc/self/pagemap"]).exitCode === 0;

describe("configuration files that are not files", () => {
  test(".sentryclirc -> /proc/self/pagemap and a sentry.properties FIFO are passed over; ~/.sentryclirc still counts", async () => {
    const home = tempDir("tracker-home-");
    const proj = join(home, "proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    writeFileSync(join(proj, ".git", "HEAD"), "x");
    writeFileSync(join(home, ".sentryclirc"), "[defaults]\norg=acme\nproject=api\n");
    if (hasProc()) symlinkSync("/proc/self/pagemap", join(proj, ".sentryclirc"));
    else console.warn("no /proc here: only the FIFO case runs");
    mkfifo(join(proj, "sentry.properties"));
    const t0 = performance.now();
    const r = await runCli(["project", "view", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: proj,
      env: { HOME: home },
      subprocess: true,
      timeoutMs: 15_000,
    });
    expect(r.exitCode).toBe(0);
    expect(performance.now() - t0).toBeLessThan(15_000);
    const p = JSON.parse(r.stdout) as { slug: string; organization: { slug: string } };
    expect(`${p.organization.slug}/${p.slug}`).toBe("acme/api");
    expect(r.stderr).toBe("Using acme/api (from ~/.sentryclirc)\n");
  }, 20_000);

  test(".env as a FIFO or a /proc link is not read by the DSN scan; a regular .env beside them is", () => {
    const dir = tempDir();
    mkfifo(join(dir, ".env"));
    if (hasProc()) symlinkSync("/proc/self/environ", join(dir, ".env.local"));
    writeFileSync(
      join(dir, ".env.development"),
      "SENTRY_DSN=https://abcdef0123456789abcdef0123456789@o1.ingest.sentry.io/42\n",
    );
    const found = scanTree(dir).locations.map((l) => [l.file.slice(dir.length + 1), l.dsn]);
    expect(found).toEqual([
      [".env.development", "https://abcdef0123456789abcdef0123456789@o1.ingest.sentry.io/42"],
    ]);
  });
});

describe("event send --logfile", () => {
  test("a FIFO is refused at once (exit 21), nothing is sent", async () => {
    const p = api.state.projects.find((x) => x.id === "300021");
    if (!p) throw new Error("seed changed");
    const cwd = tempDir();
    writeFileSync(join(cwd, ".env"), `SENTRY_DSN=${dsnFor(api.state, p)}\n`);
    mkfifo(join(cwd, "job.log"));
    const r = await runCli(["event", "send", "-m", "x", "--logfile", "job.log"], {
      api,
      cwd,
      subprocess: true,
      timeoutMs: 15_000,
    });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe("Error: --logfile: job.log is a FIFO; only a regular file can be read.\n");
    expect(api.requests).toEqual([]);
  }, 20_000);
});
