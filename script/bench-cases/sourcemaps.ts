/**
 * `sourcemap upload` of generated build output against the fake API. The default is a small build
 * (200 files, ~20 MB of maps); BENCH_SOURCEMAP_FILES=2000 BENCH_SOURCEMAP_MB=200 gives issue 27's
 * full size. The warm-up runs upload the bundle, so the timed "unchanged" case measures a
 * re-upload (one assemble request); the `--force` case rebuilds and hashes every run (the server
 * then already has every chunk, as for the legacy CLI's re-upload).
 *
 * Fresh uploads (the server has no chunk yet) against the legacy Rust CLI: with SENTRY_CLI_BIN set
 * (e.g. from `npm install @sentry/cli` in a scratch dir), the "vs sentry-cli" case's setup runs
 * both CLIs BENCH_SOURCEMAP_RUNS times (default 3) on the same files, each run against a new fake
 * API (so every chunk is missing) with BENCH_SOURCEMAP_LATENCY ms (default 50) before every answer,
 * and prints the medians. Standalone: `SENTRY_CLI_BIN=… bun script/bench-cases/sourcemaps.ts
 * [tracker command…]` (default `bun src/bin.ts`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../test/fake-api/server.ts";
import type { BenchCase } from "./types.ts";
import { addVersusCase, freshPair, runVersusStandalone, type Versus } from "./versus-sentry-cli.ts";

const FILES = Number(process.env.BENCH_SOURCEMAP_FILES ?? 200);
const TOTAL_MB = Number(process.env.BENCH_SOURCEMAP_MB ?? 20);
const RUNS = Number(process.env.BENCH_SOURCEMAP_RUNS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_SOURCEMAP_LATENCY ?? 50);

/** Even base64 VLQ digits: one-character, non-negative values 0..15. */
const VLQ = "ACEGIKMOQSUWYace";

/**
 * One valid mappings segment from a hash (the legacy CLI parses every map): column, source 0, line,
 * column deltas, then `,` or, every 40th, `;` (a new generated line).
 */
function segment(h: number | bigint, n: number): string {
  const x = Number(BigInt(h) & 0xffffn);
  const d = (k: number) => VLQ[(x >> (4 * k)) & 15];
  return `${d(0)}A${d(1)}${d(2)}${n % 40 === 39 ? ";" : ","}`;
}

/** Writes FILES/2 minified files and their maps (maps carry most of the bytes) under `<configDir>/build`. */
async function generate({ configDir }: { configDir: string }): Promise<{ cwd: string }> {
  const root = join(configDir, "build");
  const pairs = Math.max(1, Math.floor(FILES / 2));
  const mapBytes = Math.floor((TOTAL_MB * 1024 * 1024) / pairs);
  for (let i = 0; i < pairs; i++) {
    const dir = join(root, "static", `chunk-${i % 20}`);
    mkdirSync(dir, { recursive: true });
    const id = `${i.toString(16).padStart(8, "0")}-0000-5000-8000-000000000000`;
    const parts: string[] = [];
    let length = 0;
    for (let n = 0; length < mapBytes; n++) {
      const p = segment(Bun.hash(`${i}:${n}`), n);
      parts.push(p);
      length += p.length;
    }
    writeFileSync(
      join(dir, `f${i}.js`),
      `function f${i}(){return ${i}}\n//# sourceMappingURL=f${i}.js.map\n//# debugId=${id}\n`,
    );
    writeFileSync(
      join(dir, `f${i}.js.map`),
      JSON.stringify({
        version: 3,
        sources: [`src/f${i}.ts`],
        names: [],
        mappings: parts.join(""),
        debug_id: id,
      }),
    );
  }
  return { cwd: root };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] as number;
}

/** Fresh-upload medians of tracker and the legacy CLI on the same files and fake; printed to stderr. */
export async function compareWithSentryCli(
  cwd: string,
  tracker: string[],
  sentryCli: string,
): Promise<{ trackerMs: number; sentryCliMs: number }> {
  const { chunkStore } = await import("../../test/fake-api/routes/chunks.ts");
  const oneBundle = (api: FakeApi): void => {
    const bundles = [...chunkStore(api.state).bundles.values()];
    if (bundles.length !== 1 || bundles[0]?.state === "error")
      throw new Error(`the fake did not assemble one bundle (${bundles[0]?.detail ?? bundles.length})`);
  };
  const t: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const pair = await freshPair(
      cwd,
      LATENCY_MS,
      [sentryCli, "sourcemaps", "upload", "--org", "acme", "--project", "web", "."],
      [...tracker, "sourcemap", "upload", ".", "acme/web", "--json"],
      oneBundle,
    );
    s.push(pair.sentryCli.ms);
    t.push(pair.tracker.ms);
    process.stderr.write(
      `bench: fresh upload run ${i + 1}: sentry-cli ${s[i]?.toFixed(0)} ms, tracker ${t[i]?.toFixed(0)} ms\n`,
    );
  }
  const r = { trackerMs: median(t), sentryCliMs: median(s) };
  process.stderr.write(
    `bench: fresh upload of ${FILES} files/${TOTAL_MB} MB at ${LATENCY_MS} ms latency, median of ${RUNS}: tracker ${r.trackerMs.toFixed(0)} ms, sentry-cli ${r.sentryCliMs.toFixed(0)} ms\n`,
  );
  return r;
}

/** Bench cases of source-map upload. */
export const cases: BenchCase[] = [
  {
    name: `sourcemap upload ${FILES} files/${TOTAL_MB} MB (unchanged)`,
    args: ["sourcemap", "upload", ".", "acme/web", "--json"],
    needsApi: true,
    setup: generate,
    target: { p50Ms: 1000 },
  },
  {
    name: `sourcemap upload ${FILES} files/${TOTAL_MB} MB --force (rebuild)`,
    args: ["sourcemap", "upload", ".", "acme/web", "--json", "--force"],
    needsApi: true,
    setup: generate,
  },
];

const versus: Versus = {
  name: `sourcemap upload ${FILES} files/${TOTAL_MB} MB (unchanged, after fresh vs sentry-cli)`,
  args: ["sourcemap", "upload", ".", "acme/web", "--json"],
  generate,
  compare: compareWithSentryCli,
  keepEnv: "BENCH_SOURCEMAP_DIR",
  keepSubdir: "build",
  tempPrefix: "tracker-bench-files-",
};
addVersusCase(cases, versus);

// BENCH_SOURCEMAP_DIR keeps the generated files there (and reuses them on the next run).
if (import.meta.main) await runVersusStandalone(versus);
