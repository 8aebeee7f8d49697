/**
 * `debug-files upload` of generated Breakpad symbol files against the fake API: a few large files
 * and many small ones (BENCH_DIFS_MB in all, default 64; BENCH_DIFS_MB=1024 gives issue 33's 1 GB).
 * The warm-up runs upload them, so the timed case measures an unchanged re-upload (one assemble
 * request); peak RSS is the figure to watch (≤ 150 MB however large the files).
 *
 * Fresh uploads against the legacy Rust CLI: with SENTRY_CLI_BIN set (e.g. from `npm install
 * @sentry/cli` in a scratch dir), the "vs sentry-cli" case's setup runs both CLIs BENCH_DIFS_RUNS
 * times (default 1) on the same files, each against a new fake API (every chunk missing) with
 * BENCH_DIFS_LATENCY ms (default 50) before every answer, and prints wall times and peak RSS.
 * Standalone: `SENTRY_CLI_BIN=… bun script/bench-cases/difs.ts [tracker command…]`.
 */
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BenchCase } from "./types.ts";

const TOTAL_MB = Number(process.env.BENCH_DIFS_MB ?? 64);
const RUNS = Number(process.env.BENCH_DIFS_RUNS ?? 1);
const LATENCY_MS = Number(process.env.BENCH_DIFS_LATENCY ?? 50);
const ROOT = resolve(import.meta.dir, "../..");
/** Share of the bytes in the large files, and how many there are. */
const LARGE_SHARE = 0.6;
const LARGE_FILES = 3;
const SMALL_FILE_BYTES = 512 * 1024;

/** One Breakpad file of about `bytes` bytes, written in pieces (the generator stays small too). */
function writeSym(path: string, n: number, bytes: number): void {
  const fd = openSync(path, "w");
  try {
    const id = `${n.toString(16).padStart(8, "0")}${"a5".repeat(12)}0`;
    writeSync(
      fd,
      `MODULE Linux x86_64 ${id.toUpperCase()} lib${n}.so\nINFO CODE_ID ${id.slice(0, 32)}\nFILE 0 /build/src/lib${n}.c\n`,
    );
    let written = 0;
    let addr = 0x1000;
    for (let block = 0; written < bytes; block++) {
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++, addr += 0x40) {
        const h = Bun.hash(`${n}:${block}:${i}`).toString(36);
        lines.push(
          `FUNC ${addr.toString(16)} 40 0 ns_${h}::fn_${h.slice(0, 6)}(int, char const*)`,
          `${addr.toString(16)} 40 ${i + 1} 0`,
        );
      }
      const text = `${lines.join("\n")}\n`;
      writeSync(fd, text);
      written += text.length;
    }
    writeSync(fd, "STACK CFI INIT 1000 40 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n");
  } finally {
    closeSync(fd);
  }
}

/** Writes the symbol files under `<configDir>/symbols`. */
async function generate({ configDir }: { configDir: string }): Promise<{ cwd: string }> {
  const root = join(configDir, "symbols");
  const total = TOTAL_MB * 1024 * 1024;
  const large = Math.floor((total * LARGE_SHARE) / LARGE_FILES);
  const small = Math.max(1, Math.floor((total - large * LARGE_FILES) / SMALL_FILE_BYTES));
  mkdirSync(join(root, "large"), { recursive: true });
  for (let i = 0; i < LARGE_FILES; i++) writeSym(join(root, "large", `big${i}.sym`), i, large);
  for (let i = 0; i < small; i++) {
    const dir = join(root, "small", `d${i % 16}`);
    mkdirSync(dir, { recursive: true });
    writeSym(join(dir, `lib${i}.sym`), 1000 + i, SMALL_FILE_BYTES);
  }
  return { cwd: root };
}

/** Runs `cmd` against a new fake API (every chunk missing) under /usr/bin/time: wall ms and peak RSS MiB. */
async function freshRun(
  cmd: string[],
  cwd: string,
  env: (url: string) => Record<string, string>,
): Promise<{ ms: number; rssMiB: number; files: number }> {
  const { startFakeApi } = await import("../../test/fake-api/server.ts");
  const { chunkStore } = await import("../../test/fake-api/routes/chunks.ts");
  const { difStore } = await import("../../test/fake-api/routes/difs.ts");
  const api = await startFakeApi({ latencyMs: LATENCY_MS });
  chunkStore(api.state).latencyMs = LATENCY_MS;
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
    const difs = [...difStore(api.state).difs.values()];
    const bad = difs.filter((d) => d.detail);
    if (bad.length > 0)
      throw new Error(`${cmd[0]}: the fake refused ${bad.length} file(s): ${bad[0]?.detail}`);
    return { ms, rssMiB: kb / 1024, files: difs.length };
  } finally {
    chunkStore(api.state).server?.stop(true);
    api.stop();
  }
}

/** Fresh-upload figures of tracker and the legacy CLI on the same files and fake; printed to stderr. */
export async function compareWithSentryCli(cwd: string, tracker: string[], sentryCli: string): Promise<void> {
  const { USER_TOKEN } = await import("../../test/fake-api/seed.ts");
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_") && !k.startsWith("SENTRY_")) base[k] = v;
  for (let i = 0; i < RUNS; i++) {
    const s = await freshRun(
      [sentryCli, "debug-files", "upload", "--org", "acme", "--project", "web", "."],
      cwd,
      (url) => ({
        ...base,
        SENTRY_URL: url,
        SENTRY_AUTH_TOKEN: USER_TOKEN,
        SENTRY_LOAD_DOTENV: "0",
        SENTRY_DISABLE_UPDATE_CHECK: "1",
      }),
    );
    const configDir = mkdtempSync(join(tmpdir(), "tracker-bench-cfg-"));
    try {
      const env = (url: string) => ({
        ...base,
        TRACKER_URL: url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        TRACKER_CONFIG_DIR: configDir,
        NO_COLOR: "1",
      });
      const t = await freshRun([...tracker, "debug-files", "upload", ".", "acme/web", "--json"], cwd, env);
      process.stderr.write(
        `bench: fresh debug-files upload of ${TOTAL_MB} MB at ${LATENCY_MS} ms latency, run ${i + 1}: sentry-cli ${s.ms.toFixed(0)} ms (${s.rssMiB.toFixed(0)} MiB, ${s.files} files), tracker ${t.ms.toFixed(0)} ms (${t.rssMiB.toFixed(0)} MiB, ${t.files} files)\n`,
      );
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  }
}

/** Bench cases of debug-file upload. */
export const cases: BenchCase[] = [
  {
    name: `debug-files upload ${TOTAL_MB} MB (unchanged)`,
    args: ["debug-files", "upload", ".", "acme/web", "--json"],
    needsApi: true,
    setup: generate,
    target: { p50Ms: 1000, rssMiB: 150 },
  },
];

const sentryCliBin = process.env.SENTRY_CLI_BIN;
if (sentryCliBin) {
  cases.push({
    name: `debug-files upload ${TOTAL_MB} MB (unchanged, after fresh vs sentry-cli)`,
    args: ["debug-files", "upload", ".", "acme/web", "--json"],
    needsApi: true,
    setup: async (ctx) => {
      const out = await generate(ctx);
      const binary = process.argv.includes("--binary")
        ? resolve(process.argv[process.argv.indexOf("--binary") + 1] as string)
        : join(ROOT, "dist/tracker");
      await compareWithSentryCli(out.cwd, [binary], sentryCliBin);
      return out;
    },
  });
}

if (import.meta.main) {
  if (!sentryCliBin) {
    process.stderr.write("Set SENTRY_CLI_BIN to the legacy sentry-cli binary.\n");
    process.exit(2);
  }
  // BENCH_DIFS_DIR keeps the generated files there (and reuses them on the next run).
  const keep = process.env.BENCH_DIFS_DIR;
  const configDir = keep ?? mkdtempSync(join(tmpdir(), "tracker-bench-difs-"));
  try {
    const cwd =
      keep && existsSync(join(keep, "symbols")) ? join(keep, "symbols") : (await generate({ configDir })).cwd;
    const tracker =
      process.argv.length > 2 ? process.argv.slice(2) : [process.execPath, join(ROOT, "src/bin.ts")];
    await compareWithSentryCli(cwd, tracker, sentryCliBin);
  } finally {
    if (!keep) rmSync(configDir, { recursive: true, force: true });
  }
  process.exit(0);
}
