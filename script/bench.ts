/**
 * Whole-process timings of the compiled binary: warm-up runs, then N timed runs per case; reports
 * the median (p50), p90 and peak RSS, writes .bench/last.json and compares with the previous run,
 * failing on a p50 regression above the threshold.
 *
 *   bun run bench [--binary dist/tracker] [--runs 30] [--warmup 3] [--max-regression 20]
 *                 [--min-delta-ms 1] [--filter text] [--no-compare] [--latency 150]
 *
 * --latency N also runs every API case against a fake that waits N ms before each answer and
 * prints p50 at 0 and at N, the requests per run and the sequential round trips
 * round((p50@N − p50@0) / N).
 *
 * Cases: `--version`, `--help`, plus every `cases` export of script/bench-cases/*.ts. Cases with
 * `needsApi` run against the fake API (test/fake-api/server.ts) on 127.0.0.1 with a valid token. The
 * fake runs in its own process (script/bench-server.ts), like a real server; it reports per run how
 * long it spent answering, and the bench reports wall − that as the client's own time.
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
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BenchCase, BenchTarget } from "./bench-cases/types.ts";

const ROOT = resolve(import.meta.dir, "..");
const CASES_DIR = join(ROOT, "script/bench-cases");
const OUT_DIR = join(ROOT, ".bench");
const LAST_FILE = join(OUT_DIR, "last.json");
const PREVIOUS_FILE = join(OUT_DIR, "previous.json");
/** Runs under /usr/bin/time per case for the peak-RSS figure (kept apart so timing is not skewed). */
const RSS_RUNS = 3;

/** The start-up targets from the foundation issue (cases from bench-cases carry their own). */
const START_TARGETS: Record<string, BenchTarget> = {
  "--version": { p50Ms: 10, rssMiB: 40 },
  "--help": { p50Ms: 25, rssMiB: 40 },
};

/** Bench options from the command line. */
interface Options {
  binary: string;
  runs: number;
  warmup: number;
  maxRegressionPct: number;
  minDeltaMs: number;
  filter: string | undefined;
  compare: boolean;
  /** With --latency N: also run the API cases against a fake that waits N ms per answer. */
  latencyMs: number;
}

/** Figures of one case. */
interface CaseResult {
  name: string;
  args: string[];
  runs: number;
  p50Ms: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
  peakRssMiB: number;
  rssSource: "/usr/bin/time" | "resourceUsage";
  /** Fake-API cases: requests per run, the median time the fake spent answering them, and the
   * median of (wall time − server time) per run: what the client itself adds. */
  requestsPerRun?: number;
  serverP50Ms?: number;
  clientP50Ms?: number;
  target?: BenchTarget;
}

/** The file written to .bench/last.json. */
interface BenchFile {
  date: string;
  bun: string;
  platform: string;
  binary: string;
  binaryBytes: number;
  runs: number;
  results: CaseResult[];
}

/** The fake API process of a bench run. */
interface BenchServer {
  url: string;
  /** Clears the request log. */
  reset(): Promise<void>;
  /** Requests since the last reset and the summed time the fake spent answering them. */
  stats(): Promise<{ requests: number; serverMs: number }>;
  stop(): void;
}

async function startBenchServer(latencyMs = 0): Promise<BenchServer> {
  const inbox: unknown[] = [];
  let waiting: ((m: unknown) => void) | undefined;
  const proc = Bun.spawn([process.execPath, join(ROOT, "script/bench-server.ts")], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, BENCH_LATENCY_MS: String(latencyMs) },
    ipc(message) {
      const w = waiting;
      waiting = undefined;
      if (w) w(message);
      else inbox.push(message);
    },
  });
  let stopped = false;
  // Pending races keep watching the process: only an exit nobody asked for is a failure.
  const died = proc.exited.then((code) =>
    stopped ? new Promise<never>(() => {}) : fail(`the fake API process exited (${code})`),
  );
  const next = (): Promise<unknown> =>
    Promise.race([
      new Promise<unknown>((resolveMessage) => {
        if (inbox.length > 0) resolveMessage(inbox.shift());
        else waiting = resolveMessage;
      }),
      died,
    ]);
  const ready = (await next()) as { url?: unknown };
  if (typeof ready.url !== "string") fail("the fake API process did not report its URL");
  return {
    url: ready.url,
    async reset() {
      proc.send("reset");
      await next();
    },
    async stats() {
      proc.send("stats");
      return (await next()) as { requests: number; serverMs: number };
    },
    stop() {
      stopped = true;
      proc.kill();
    },
  };
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Options {
  const opts: Options = {
    binary: join(ROOT, "dist/tracker"),
    runs: 30,
    warmup: 3,
    maxRegressionPct: 20,
    minDeltaMs: 1,
    filter: undefined,
    compare: true,
    latencyMs: 0,
  };
  const num = (flag: string, raw: string | undefined, min: number): number => {
    const n = Number(raw);
    if (raw === undefined || !Number.isFinite(n) || n < min)
      fail(`${flag} needs a number ≥ ${min}, got '${raw}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const next = () => argv[++i];
    if (a === "--binary") opts.binary = resolve(next() ?? fail("--binary needs a path"));
    else if (a === "--runs") opts.runs = Math.round(num(a, next(), 1));
    else if (a === "--warmup") opts.warmup = Math.round(num(a, next(), 0));
    else if (a === "--max-regression") opts.maxRegressionPct = num(a, next(), 0);
    else if (a === "--min-delta-ms") opts.minDeltaMs = num(a, next(), 0);
    else if (a === "--filter") opts.filter = next();
    else if (a === "--no-compare") opts.compare = false;
    else if (a === "--latency") opts.latencyMs = Math.round(num(a, next(), 1));
    else if (a === "--help" || a === "-h") {
      process.stdout.write(
        `${readFileSync(import.meta.path, "utf8")
          .split("*/")[0]
          ?.replace(/^\/\*\*|^ \* ?/gm, "")}\n`,
      );
      process.exit(0);
    } else fail(`unknown option '${a}' (see --help)`);
  }
  return opts;
}

/**
 * The latency mode: every API case again against a fake that waits N ms before each answer. The
 * sequential round trips a command waits for are round((p50@N − p50@0) / N): what a user of a
 * distant hosted service feels.
 */
async function latencyTable(
  cases: readonly BenchCase[],
  base: readonly CaseResult[],
  opts: Options,
): Promise<void> {
  const slow = await startBenchServer(opts.latencyMs);
  const rows: string[] = [];
  try {
    for (const c of cases.filter((x) => x.needsApi)) {
      const at0 = base.find((r) => r.name === c.name);
      if (!at0) continue;
      process.stderr.write(`bench: ${c.name} at ${opts.latencyMs} ms latency …\n`);
      const r = await benchCase(c, { ...opts, runs: Math.min(opts.runs, 7), warmup: 1 }, async () => slow);
      if ("error" in r) {
        rows.push(`${c.name}: ${r.error}`);
        continue;
      }
      const trips = Math.max(0, Math.round((r.p50Ms - at0.p50Ms) / opts.latencyMs));
      rows.push(
        `${pad(c.name, 48)}${pad(ms(at0.p50Ms), 11, true)}${pad(ms(r.p50Ms), 12, true)}${pad(String(r.requestsPerRun), 10, true)}${pad(String(trips), 13, true)}`,
      );
    }
  } finally {
    slow.stop();
  }
  process.stdout.write(
    `\n${pad("CASE", 48)}${pad("P50@0", 11, true)}${pad(`P50@${opts.latencyMs}`, 12, true)}${pad("REQUESTS", 10, true)}${pad("ROUND TRIPS", 13, true)}\n${rows.join("\n")}\n`,
  );
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

async function loadCases(): Promise<BenchCase[]> {
  const cases: BenchCase[] = [
    { name: "--version", args: ["--version"] },
    { name: "--help", args: ["--help"] },
  ];
  if (!existsSync(CASES_DIR)) return cases;
  const files = readdirSync(CASES_DIR)
    .filter((f) => f.endsWith(".ts") && f !== "types.ts")
    .sort();
  for (const file of files) {
    try {
      const mod = (await import(join(CASES_DIR, file))) as { cases?: unknown };
      if (!Array.isArray(mod.cases)) {
        process.stderr.write(`bench: warning: ${file} has no \`cases\` array export; skipped\n`);
        continue;
      }
      for (const c of mod.cases as BenchCase[]) {
        if (typeof c?.name !== "string" || !Array.isArray(c.args)) {
          process.stderr.write(`bench: warning: ${file} has a case without name/args; skipped\n`);
          continue;
        }
        cases.push(c);
      }
    } catch (err) {
      process.stderr.write(`bench: warning: ${file} failed to import (${(err as Error).message}); skipped\n`);
    }
  }
  return cases;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  // The developer's own tracker settings, proxies and colours must not change the figures.
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("TRACKER_") || /^(https?|no)_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  env.NO_COLOR = "1";
  return env;
}

async function runOnce(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
  capture: boolean,
  stdin?: string,
): Promise<{ ms: number; exitCode: number; rssBytes: number; stderr: string }> {
  const started = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd,
    env,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "ignore",
    stderr: capture ? "pipe" : "ignore",
  });
  const stderr = capture ? await new Response(proc.stderr as ReadableStream).text() : "";
  const exitCode = await proc.exited;
  const ms = performance.now() - started;
  return { ms, exitCode, rssBytes: proc.resourceUsage()?.maxRSS ?? 0, stderr };
}

async function rssViaTime(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<number | undefined> {
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", ...cmd], {
    cwd,
    env,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "ignore",
    stderr: "pipe",
  });
  const text = await new Response(proc.stderr).text();
  await proc.exited;
  const kb = Number(text.trim().split("\n").pop());
  return Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
}

async function benchCase(
  c: BenchCase,
  opts: Options,
  apiFor: () => Promise<BenchServer>,
): Promise<CaseResult | { name: string; error: string }> {
  const configDir = mkdtempSync(join(tmpdir(), "tracker-bench-cfg-"));
  const ownCwd = mkdtempSync(join(tmpdir(), "tracker-bench-cwd-"));
  let cwd = ownCwd;
  const env: Record<string, string> = { ...baseEnv(), TRACKER_CONFIG_DIR: configDir, ...c.env };
  try {
    let apiUrl: string | undefined;
    if (c.needsApi) {
      const api = await apiFor();
      const { USER_TOKEN } = await import("../test/fake-api/seed.ts");
      apiUrl = api.url;
      env.TRACKER_URL = api.url;
      env.TRACKER_AUTH_TOKEN = USER_TOKEN;
    }
    const prepared = await c.setup?.({ apiUrl, configDir, cwd });
    if (prepared?.cwd) cwd = prepared.cwd;
    Object.assign(env, prepared?.env);
    const cmd = [opts.binary, ...c.args];

    // The first warm-up run doubles as a check: timing a failing command would measure the error path.
    const check = await runOnce(cmd, cwd, env, true, c.stdin);
    if (check.exitCode !== 0) {
      return { name: c.name, error: `exit ${check.exitCode}: ${check.stderr.trim().split("\n")[0] ?? ""}` };
    }
    for (let i = 1; i < opts.warmup; i++) await runOnce(cmd, cwd, env, false, c.stdin);

    const times: number[] = [];
    const serverTimes: number[] = [];
    const clientTimes: number[] = [];
    let requestsPerRun = 0;
    let rusagePeak = 0;
    const api = c.needsApi ? await apiFor() : undefined;
    for (let i = 0; i < opts.runs; i++) {
      await api?.reset();
      const r = await runOnce(cmd, cwd, env, false, c.stdin);
      if (r.exitCode !== 0) return { name: c.name, error: `run ${i + 1} exited ${r.exitCode}` };
      times.push(r.ms);
      if (api) {
        const { requests, serverMs } = await api.stats();
        serverTimes.push(serverMs);
        clientTimes.push(r.ms - serverMs);
        requestsPerRun = Math.max(requestsPerRun, requests);
      }
      rusagePeak = Math.max(rusagePeak, r.rssBytes);
    }
    let peak = rusagePeak;
    let rssSource: CaseResult["rssSource"] = "resourceUsage";
    if (existsSync("/usr/bin/time")) {
      const samples: number[] = [];
      for (let i = 0; i < RSS_RUNS; i++) {
        const kb = await rssViaTime(cmd, cwd, env, c.stdin);
        if (kb !== undefined) samples.push(kb);
      }
      if (samples.length > 0) {
        peak = Math.max(...samples);
        rssSource = "/usr/bin/time";
      }
    }
    times.sort((a, b) => a - b);
    serverTimes.sort((a, b) => a - b);
    clientTimes.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    const target = c.target ?? START_TARGETS[c.name];
    return {
      name: c.name,
      args: c.args,
      runs: opts.runs,
      p50Ms: round(percentile(times, 50)),
      p90Ms: round(percentile(times, 90)),
      minMs: round(times[0] as number),
      maxMs: round(times[times.length - 1] as number),
      peakRssMiB: round(peak / (1024 * 1024)),
      rssSource,
      ...(api
        ? {
            requestsPerRun,
            serverP50Ms: round(percentile(serverTimes, 50)),
            clientP50Ms: round(percentile(clientTimes, 50)),
          }
        : {}),
      ...(target ? { target } : {}),
    };
  } finally {
    rmSync(configDir, { recursive: true, force: true });
    rmSync(ownCwd, { recursive: true, force: true });
  }
}

function readPrevious(): BenchFile | undefined {
  if (!existsSync(LAST_FILE)) return undefined;
  try {
    const data = JSON.parse(readFileSync(LAST_FILE, "utf8")) as BenchFile;
    return Array.isArray(data.results) ? data : undefined;
  } catch {
    process.stderr.write(`bench: warning: ${LAST_FILE} is unreadable; no comparison\n`);
    return undefined;
  }
}

function ms(n: number | undefined): string {
  return n === undefined ? "" : `${n.toFixed(1)} ms`;
}

/** "target <case>: … → met|MISSED" for a case with a target, else undefined. */
function targetLine(r: CaseResult): string | undefined {
  const t = r.target;
  if (!t) return undefined;
  const parts: string[] = [];
  let ok = true;
  if (t.p50Ms !== undefined) {
    parts.push(`p50 < ${t.p50Ms} ms`);
    ok &&= r.p50Ms < t.p50Ms;
  }
  if (t.clientMs !== undefined) {
    parts.push(`client < ${t.clientMs} ms beyond the server`);
    ok &&= r.clientP50Ms !== undefined && r.clientP50Ms < t.clientMs;
  }
  if (t.rssMiB !== undefined) {
    parts.push(`peak < ${t.rssMiB} MiB`);
    ok &&= r.peakRssMiB < t.rssMiB;
  }
  return `target ${r.name}: ${parts.join(", ")} → ${ok ? "met" : "MISSED"}`;
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.binary)) {
    if (opts.binary !== join(ROOT, "dist/tracker")) fail(`binary not found: ${opts.binary}`);
    process.stderr.write("bench: dist/tracker is missing; building it first\n");
    const { compile } = await import("./build.ts");
    mkdirSync(join(ROOT, "dist"), { recursive: true });
    await compile(opts.binary);
  }

  let cases = await loadCases();
  if (opts.filter) cases = cases.filter((c) => c.name.includes(opts.filter as string));
  if (cases.length === 0) fail(`no case matches '${opts.filter}'`);

  let api: BenchServer | undefined;
  const apiFor = async () => {
    api ??= await startBenchServer();
    return api;
  };

  const results: CaseResult[] = [];
  const errors: { name: string; error: string }[] = [];
  try {
    for (const c of cases) {
      process.stderr.write(`bench: ${c.name} …\n`);
      const r = await benchCase(c, opts, apiFor);
      if ("error" in r) errors.push(r);
      else results.push(r);
    }
  } finally {
    api?.stop();
  }

  const previous = opts.compare ? readPrevious() : undefined;
  const prevByName = new Map(previous?.results.map((r) => [r.name, r]));
  const width = Math.max(12, ...results.map((r) => r.name.length)) + 2;
  const lines = [
    `${pad("CASE", width)}${pad("P50", 10, true)}${pad("P90", 10, true)}${pad("SERVER", 10, true)}${pad("CLIENT", 10, true)}${pad("PEAK RSS", 12, true)}${pad("ΔP50", 10, true)}`,
  ];
  const regressions: string[] = [];
  for (const r of results) {
    const prev = prevByName.get(r.name);
    let delta = "";
    if (prev && prev.p50Ms > 0) {
      const pct = ((r.p50Ms - prev.p50Ms) / prev.p50Ms) * 100;
      delta = `${pct >= 0 ? "+" : ""}${pct.toFixed(1)}%`;
      // Both a relative and an absolute floor: a 0.5 ms wobble on a 3 ms command is noise.
      if (pct > opts.maxRegressionPct && r.p50Ms - prev.p50Ms > opts.minDeltaMs) {
        regressions.push(`${r.name}: p50 ${prev.p50Ms} ms → ${r.p50Ms} ms (${delta})`);
      }
    }
    lines.push(
      `${pad(r.name, width)}${pad(ms(r.p50Ms), 10, true)}${pad(ms(r.p90Ms), 10, true)}${pad(ms(r.serverP50Ms), 10, true)}${pad(ms(r.clientP50Ms), 10, true)}${pad(`${r.peakRssMiB.toFixed(1)} MiB`, 12, true)}${pad(delta, 10, true)}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stdout.write(
    `\n${opts.runs} runs per case after ${opts.warmup} warm-up; binary ${opts.binary} (${(statSync(opts.binary).size / 1024 / 1024).toFixed(1)} MiB); peak RSS from ${results[0]?.rssSource ?? "n/a"}\n`,
  );
  process.stdout.write(
    "SERVER: median time the fake API spent answering one run's requests; CLIENT: median of (wall − server) per run.\n",
  );
  for (const r of results) {
    const line = targetLine(r);
    if (line) process.stdout.write(`${line}\n`);
  }

  if (opts.latencyMs > 0) await latencyTable(cases, results, opts);

  mkdirSync(OUT_DIR, { recursive: true });
  const file: BenchFile = {
    date: new Date().toISOString(),
    bun: Bun.version,
    platform: `${process.platform}-${process.arch}`,
    binary: opts.binary,
    binaryBytes: statSync(opts.binary).size,
    runs: opts.runs,
    results,
  };
  if (existsSync(LAST_FILE)) writeFileSync(PREVIOUS_FILE, readFileSync(LAST_FILE));
  writeFileSync(LAST_FILE, `${JSON.stringify(file, null, 2)}\n`);
  process.stdout.write(
    `results written to ${LAST_FILE}${previous ? " (compared with the previous run)" : ""}\n`,
  );

  for (const e of errors) process.stderr.write(`bench: case ${e.name} failed: ${e.error}\n`);
  if (regressions.length > 0) {
    process.stderr.write(
      `bench: p50 regression above ${opts.maxRegressionPct}%:\n${regressions.map((r) => `  ${r}`).join("\n")}\n` +
        "Rerun to rule out noise, or pass --no-compare to skip the comparison.\n",
    );
    process.exit(1);
  }
  if (errors.length > 0) process.exit(1);
}

if (import.meta.main) await main();
