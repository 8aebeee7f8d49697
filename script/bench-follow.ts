/**
 * Memory of a long `tracker log list --follow`: runs the compiled binary against the fake API
 * (127.0.0.1 only) while the fake keeps producing new logs in acme/web, samples the binary's
 * resident memory (VmRSS of /proc/<pid>/status) every few seconds, and reports the first, last
 * and highest figure and whether memory grew.
 *
 *   bun run script/bench-follow.ts [--seconds 60] [--rate 40] [--sample 5] [--interval 1s]
 *                                  [--json] [--binary dist/tracker]
 *
 *   --seconds   real time to follow (default 60; BENCH_FOLLOW_SECONDS=600 for the 10-minute run)
 *   --rate      new logs per second the fake produces (default 40; each poll asks for at most 100)
 *   --sample    seconds between RSS samples (default 5)
 *   --interval  the command's --interval (default 1s, the shortest it accepts)
 *   --json      follow with --json (JSON Lines) instead of the piped table
 *
 * The fake runs in this process; a timer adds logs (addLog of test/fake-api/routes/logs.ts) with
 * rising timestamps after the fake's fixed "now", so every poll (`timestamp_precise:>=<last>`,
 * 10-minute window) finds new ones. The output lines are counted to show the client keeps up.
 * "Grew" means the highest sample of the last third exceeds the highest of the first third
 * (after the first sample) by more than 10 % and 4 MiB; the exit code is then 1. Linux only.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FAKE_NOW_MS } from "../test/fake-api/clock.ts";
import { addLog, logStore, nsAt } from "../test/fake-api/routes/logs.ts";
import { USER_TOKEN } from "../test/fake-api/seed.ts";
import { startFakeApi } from "../test/fake-api/server.ts";

const ROOT = resolve(import.meta.dir, "..");

interface Options {
  seconds: number;
  rate: number;
  sample: number;
  interval: string;
  json: boolean;
  binary: string;
}

function fail(message: string): never {
  process.stderr.write(`bench-follow: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Options {
  const opts: Options = {
    seconds: Number(process.env.BENCH_FOLLOW_SECONDS ?? 60),
    rate: 40,
    sample: 5,
    interval: "1s",
    json: false,
    binary: join(ROOT, "dist/tracker"),
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
    if (a === "--seconds") opts.seconds = num(a, next(), 5);
    else if (a === "--rate") opts.rate = num(a, next(), 0);
    else if (a === "--sample") opts.sample = num(a, next(), 0.5);
    else if (a === "--interval") opts.interval = next() ?? fail("--interval needs a duration");
    else if (a === "--json") opts.json = true;
    else if (a === "--binary") opts.binary = resolve(next() ?? fail("--binary needs a path"));
    else if (a === "--help" || a === "-h") {
      process.stdout.write(
        `${readFileSync(import.meta.path, "utf8")
          .split("*/")[0]
          ?.replace(/^\/\*\*|^ \* ?/gm, "")}\n`,
      );
      process.exit(0);
    } else fail(`unknown option '${a}' (see --help)`);
  }
  if (!Number.isFinite(opts.seconds) || opts.seconds < 5) fail("--seconds must be at least 5");
  return opts;
}

/** VmRSS of a process in KiB, or undefined once it is gone. */
function rssKiB(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.binary)) fail(`binary not found: ${opts.binary} (bun run build)`);
  if (!existsSync("/proc/self/status")) fail("needs /proc (Linux)");

  const api = await startFakeApi();
  // Seed first, so the produced logs come after the seeded ones.
  logStore(api.state);
  const started = performance.now();
  let produced = 0;
  let carry = 0;
  const PRODUCE_EVERY_MS = 100;
  const producer = setInterval(() => {
    carry += (opts.rate * PRODUCE_EVERY_MS) / 1000;
    const elapsedMs = Math.round(performance.now() - started);
    for (; carry >= 1; carry--) {
      const n = produced++;
      const id = (
        Bun.hash(`follow-log-${n}`).toString(16).padStart(16, "0") + n.toString(16).padStart(16, "0")
      ).slice(0, 32);
      // Rising timestamps after the fake's fixed "now" (inside every poll's 10-minute window).
      const log = addLog(api.state, id, 0, {
        message: `follow worker ${n % 17}: handled request ${n} ${"x".repeat(n % 120)}`,
        severity: n % 10 === 0 ? "error" : "info",
        severityNumber: n % 10 === 0 ? 17 : 9,
        spanId: Bun.hash(`span-${n}`).toString(16).padStart(16, "0").slice(0, 16),
        trace: Bun.hash(`trace-${n % 50}`)
          .toString(16)
          .padStart(32, "0")
          .slice(0, 32),
      });
      log.ns = nsAt(FAKE_NOW_MS + elapsedMs, n % 1_000_000);
    }
  }, PRODUCE_EVERY_MS);

  const configDir = mkdtempSync(join(tmpdir(), "tracker-bench-follow-"));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("TRACKER_") || /^(https?|no)_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, {
    NO_COLOR: "1",
    TRACKER_CONFIG_DIR: configDir,
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
  });
  const args = [
    "log",
    "list",
    "acme/web",
    "--follow",
    "--interval",
    opts.interval,
    ...(opts.json ? ["--json"] : []),
  ];
  process.stderr.write(
    `bench-follow: ${args.join(" ")} for ${opts.seconds} s, ${opts.rate} new logs/s, RSS every ${opts.sample} s\n`,
  );
  const proc = Bun.spawn([opts.binary, ...args], { cwd: configDir, env, stdout: "pipe", stderr: "pipe" });
  let lines = 0;
  const reading = (async () => {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const b of value) if (b === 10) lines++;
    }
  })();
  const stderrText = new Response(proc.stderr as ReadableStream).text();

  const samples: { t: number; kib: number; lines: number }[] = [];
  const endAt = started + opts.seconds * 1000;
  let exitedEarly = false;
  proc.exited.then(() => {
    exitedEarly = performance.now() < endAt;
  });
  const count = Math.max(3, Math.floor(opts.seconds / opts.sample));
  for (let i = 1; i <= count && !exitedEarly; i++) {
    await Bun.sleep(Math.max(0, started + (i * opts.seconds * 1000) / count - performance.now()));
    const kib = rssKiB(proc.pid);
    if (kib === undefined) break;
    const t = (performance.now() - started) / 1000;
    samples.push({ t, kib, lines });
    process.stderr.write(`  ${t.toFixed(0).padStart(4)} s  RSS ${mib(kib).padStart(10)}  ${lines} lines\n`);
  }
  clearInterval(producer);
  const requests = api.requests.length;
  const failed = api.requests.filter((r) => r.status >= 400).length;
  proc.kill("SIGINT");
  const killer = setTimeout(() => proc.kill("SIGKILL"), 5000);
  const code = await proc.exited;
  clearTimeout(killer);
  await reading;
  const stderr = (await stderrText).trim();
  api.stop();
  rmSync(configDir, { recursive: true, force: true });

  if (exitedEarly || samples.length < 3) {
    fail(
      `the command stopped early (exit ${code}, ${samples.length} samples): ${stderr.split("\n")[0] ?? ""}`,
    );
  }
  const third = Math.max(1, Math.floor(samples.length / 3));
  // The first sample is start-up; the steady state is measured from the second on.
  const head = samples.slice(1, 1 + third);
  const tail = samples.slice(-third);
  const headMax = Math.max(...head.map((s) => s.kib));
  const tailMax = Math.max(...tail.map((s) => s.kib));
  const first = samples[0] as { kib: number };
  const last = samples[samples.length - 1] as { kib: number };
  const max = Math.max(...samples.map((s) => s.kib));
  // Least-squares slope over the steady samples, in MiB per minute.
  const steady = samples.slice(1);
  const mt = steady.reduce((s, x) => s + x.t, 0) / steady.length;
  const mk = steady.reduce((s, x) => s + x.kib, 0) / steady.length;
  const slope =
    steady.reduce((s, x) => s + (x.t - mt) * (x.kib - mk), 0) /
    Math.max(
      1e-9,
      steady.reduce((s, x) => s + (x.t - mt) ** 2, 0),
    );
  const grew = tailMax > headMax * 1.1 && tailMax - headMax > 4 * 1024;
  const expected = produced;
  process.stdout.write(
    [
      `follow ${opts.seconds} s at ${opts.rate} logs/s: ${produced} logs produced, ${lines} lines printed, ${requests} requests (${failed} failed)`,
      `RSS first ${mib(first.kib)}, last ${mib(last.kib)}, max ${mib(max)}; first third max ${mib(headMax)} → last third max ${mib(tailMax)}; slope ${(slope / 1024) * 60 >= 0 ? "+" : ""}${((slope / 1024) * 60).toFixed(2)} MiB/min`,
      `memory ${grew ? "GREW" : "flat"}${lines + 200 < expected ? `; the client fell behind (${expected - lines} logs not printed)` : ""}`,
      stderr ? `stderr: ${stderr.split("\n").slice(0, 3).join(" | ")}` : "",
    ]
      .filter(Boolean)
      .join("\n") + "\n",
  );
  process.exit(grew ? 1 : 0);
}

await main();
