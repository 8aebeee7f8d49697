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
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../test/fake-api/server.ts";
import type { BenchCase } from "./types.ts";
import { addVersusCase, freshPair, runVersusStandalone, type Versus } from "./versus-sentry-cli.ts";

const TOTAL_MB = Number(process.env.BENCH_DIFS_MB ?? 64);
const RUNS = Number(process.env.BENCH_DIFS_RUNS ?? 1);
const LATENCY_MS = Number(process.env.BENCH_DIFS_LATENCY ?? 50);
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

/** Fresh-upload figures of tracker and the legacy CLI on the same files and fake; printed to stderr. */
export async function compareWithSentryCli(cwd: string, tracker: string[], sentryCli: string): Promise<void> {
  const { difStore } = await import("../../test/fake-api/routes/difs.ts");
  const files = (api: FakeApi): number => {
    const difs = [...difStore(api.state).difs.values()];
    const bad = difs.filter((d) => d.detail);
    if (bad.length > 0) throw new Error(`the fake refused ${bad.length} file(s): ${bad[0]?.detail}`);
    return difs.length;
  };
  for (let i = 0; i < RUNS; i++) {
    const { sentryCli: s, tracker: t } = await freshPair(
      cwd,
      LATENCY_MS,
      [sentryCli, "debug-files", "upload", "--org", "acme", "--project", "web", "."],
      [...tracker, "debug-files", "upload", ".", "acme/web", "--json"],
      files,
    );
    process.stderr.write(
      `bench: fresh debug-files upload of ${TOTAL_MB} MB at ${LATENCY_MS} ms latency, run ${i + 1}: sentry-cli ${s.ms.toFixed(0)} ms (${s.rssMiB.toFixed(0)} MiB, ${s.result} files), tracker ${t.ms.toFixed(0)} ms (${t.rssMiB.toFixed(0)} MiB, ${t.result} files)\n`,
    );
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

const versus: Versus = {
  name: `debug-files upload ${TOTAL_MB} MB (unchanged, after fresh vs sentry-cli)`,
  args: ["debug-files", "upload", ".", "acme/web", "--json"],
  generate,
  compare: compareWithSentryCli,
  keepEnv: "BENCH_DIFS_DIR",
  keepSubdir: "symbols",
  tempPrefix: "tracker-bench-difs-",
};
addVersusCase(cases, versus);

// BENCH_DIFS_DIR keeps the generated files there (and reuses them on the next run).
if (import.meta.main) await runVersusStandalone(versus);
