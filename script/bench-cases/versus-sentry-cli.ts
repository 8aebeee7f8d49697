/**
 * What the upload benches share to put tracker beside the legacy Rust CLI: one timed child run
 * against a new fake API (every chunk missing, `latencyMs` before every answer), the two CLIs'
 * environments, the bench case whose setup runs the comparison, and the standalone entry point.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeApi } from "../../test/fake-api/server.ts";
import type { BenchCase } from "./types.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** Runs `cmd` in `cwd` against a new fake API under /usr/bin/time; `check` reads what the fake holds after. */
export async function freshRun<T>(
  cmd: string[],
  cwd: string,
  latencyMs: number,
  env: (url: string) => Record<string, string>,
  check: (api: FakeApi) => T,
): Promise<{ ms: number; rssMiB: number; result: T }> {
  const { startFakeApi } = await import("../../test/fake-api/server.ts");
  const { chunkStore } = await import("../../test/fake-api/routes/chunks.ts");
  const api = await startFakeApi({ latencyMs });
  chunkStore(api.state).latencyMs = latencyMs;
  try {
    const started = performance.now();
    const timed = existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "MAXRSS %M", ...cmd] : cmd;
    const proc = Bun.spawn(timed, { cwd, env: env(api.url), stdout: "ignore", stderr: "pipe" });
    const stderr = await new Response(proc.stderr).text();
    const code = await proc.exited;
    const ms = performance.now() - started;
    if (code !== 0)
      throw new Error(`${cmd[0]} exited ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`);
    const kb = Number(/MAXRSS (\d+)/.exec(stderr)?.[1] ?? 0);
    try {
      return { ms, rssMiB: kb / 1024, result: check(api) };
    } catch (e) {
      throw new Error(`${cmd[0]}: ${(e as Error).message}`);
    }
  } finally {
    chunkStore(api.state).server?.stop(true);
    api.stop();
  }
}

/** One fresh run of each CLI on the same files, each against its own fake. */
export async function freshPair<T>(
  cwd: string,
  latencyMs: number,
  sentryCli: string[],
  tracker: string[],
  check: (api: FakeApi) => T,
): Promise<{
  sentryCli: Awaited<ReturnType<typeof freshRun<T>>>;
  tracker: Awaited<ReturnType<typeof freshRun<T>>>;
}> {
  const { USER_TOKEN } = await import("../../test/fake-api/seed.ts");
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_") && !k.startsWith("SENTRY_")) base[k] = v;
  const legacy = await freshRun(
    sentryCli,
    cwd,
    latencyMs,
    (url) => ({
      ...base,
      SENTRY_URL: url,
      SENTRY_AUTH_TOKEN: USER_TOKEN,
      SENTRY_LOAD_DOTENV: "0",
      SENTRY_DISABLE_UPDATE_CHECK: "1",
    }),
    check,
  );
  const configDir = mkdtempSync(join(tmpdir(), "tracker-bench-cfg-"));
  try {
    const ours = await freshRun(
      tracker,
      cwd,
      latencyMs,
      (url) => ({
        ...base,
        TRACKER_URL: url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        TRACKER_CONFIG_DIR: configDir,
        NO_COLOR: "1",
      }),
      check,
    );
    return { sentryCli: legacy, tracker: ours };
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

/** How a bench file generates its files and compares the two CLIs on them. */
export interface Versus {
  /** The timed case's name and tracker arguments (an unchanged re-upload after the comparison's fresh ones). */
  name: string;
  args: string[];
  /** Writes the files under `configDir`; `cwd` is where to upload from. */
  generate(ctx: { configDir: string }): Promise<{ cwd: string }>;
  /** Prints the fresh-upload figures of `tracker` (a command line) and `sentryCli` on `cwd`. */
  compare(cwd: string, tracker: string[], sentryCli: string): Promise<unknown>;
  /** The env var that keeps the generated files in a directory across standalone runs, its subdirectory, and the temp prefix. */
  keepEnv: string;
  keepSubdir: string;
  tempPrefix: string;
}

/** With SENTRY_CLI_BIN set, the case whose setup runs the comparison against the compiled binary. */
export function addVersusCase(cases: BenchCase[], v: Versus): void {
  const sentryCli = process.env.SENTRY_CLI_BIN;
  if (!sentryCli) return;
  cases.push({
    name: v.name,
    args: v.args,
    needsApi: true,
    setup: async (ctx) => {
      const out = await v.generate(ctx);
      const binary = process.argv.includes("--binary")
        ? resolve(process.argv[process.argv.indexOf("--binary") + 1] as string)
        : join(ROOT, "dist/tracker");
      await v.compare(out.cwd, [binary], sentryCli);
      return out;
    },
  });
}

/** The bench file run on its own: `SENTRY_CLI_BIN=… bun <file> [tracker command…]`. */
export async function runVersusStandalone(v: Versus): Promise<never> {
  const sentryCli = process.env.SENTRY_CLI_BIN;
  if (!sentryCli) {
    process.stderr.write("Set SENTRY_CLI_BIN to the legacy sentry-cli binary.\n");
    process.exit(2);
  }
  const keep = process.env[v.keepEnv];
  const configDir = keep ?? mkdtempSync(join(tmpdir(), v.tempPrefix));
  try {
    const cwd =
      keep && existsSync(join(keep, v.keepSubdir))
        ? join(keep, v.keepSubdir)
        : (await v.generate({ configDir })).cwd;
    const tracker =
      process.argv.length > 2 ? process.argv.slice(2) : [process.execPath, join(ROOT, "src/bin.ts")];
    await v.compare(cwd, tracker, sentryCli);
  } finally {
    if (!keep) rmSync(configDir, { recursive: true, force: true });
  }
  process.exit(0);
}
