/**
 * The fuzz/fault harness: a seeded generator, the real app run in-process (main() with injected
 * streams, environment and a no-op sleep, so retries cost no wall time), and the invariants every
 * case must keep whatever the input: an exit code from the README's table other than 1 (an
 * unexpected failure), no stack trace, nothing on stdout when it fails, one JSON document when
 * --json succeeds, no token in any output, and an end within the case deadline.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command, RouteMap } from "@stricli/core";
import { loadRootRoutes } from "../../src/app.ts";
import type { TrackerContext } from "../../src/context.ts";
import { EXIT_CODE_TABLE } from "../../src/lib/exit-codes.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../fake-api/server.ts";
import { type CliResult, runInProcess } from "../helpers/cli.ts";

/** A deterministic pseudo-random source (mulberry32). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** One command of the tree, as the fuzzer sees it. */
export interface CommandShape {
  words: string[];
  flags: { name: string; kind: string; values?: readonly string[] }[];
  positionals: number;
}

/** Every command reachable from the root, with its flags and positional count. */
export async function commandCatalog(): Promise<CommandShape[]> {
  const out: CommandShape[] = [];
  const walk = (t: RouteMap<TrackerContext> | Command<TrackerContext>, words: string[]) => {
    if ("getRoutingTargetForInput" in t) {
      for (const e of t.getAllEntries()) walk(e.target, [...words, e.name.original]);
      return;
    }
    const params = (t as unknown as { parameters: Record<string, unknown> }).parameters;
    const flags = Object.entries(
      (params.flags ?? {}) as Record<string, { kind: string; values?: string[] }>,
    ).map(([name, f]) => ({
      name: name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      kind: f.kind,
      values: f.values,
    }));
    const pos = params.positional as { kind: string; parameters?: unknown[] } | undefined;
    out.push({ words, flags, positionals: pos?.parameters?.length ?? (pos?.kind === "array" ? 3 : 0) });
  };
  walk(await loadRootRoutes(), []);
  return out;
}

/** Exit codes a run may end with (the README's table; 1 means a bug and is checked separately). */
export const DOCUMENTED_CODES = new Set(EXIT_CODE_TABLE.map((r) => r.code));

/** The outcome of one in-process run. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options of one in-process run. */
export interface RunCase {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  deadlineMs?: number;
}

/** Runs the real app in-process. */
export async function runCase(c: RunCase): Promise<RunResult> {
  if (process.env.FUZZ_TRACE) process.stderr.write(`CASE ${JSON.stringify(c.argv)}\n`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), c.deadlineMs ?? 15_000);
  });
  const run = runInProcess(c.argv, { env: c.env, cwd: c.cwd, sleep: async () => {} }).catch(
    (err: unknown): CliResult => ({
      exitCode: -1,
      stdout: "",
      stderr: `UNCAUGHT ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    }),
  );
  const started = performance.now();
  const winner = await Promise.race([run, deadline]);
  clearTimeout(timer);
  // Synchronous work blocks the timer, so the elapsed time is checked as well.
  const late = performance.now() - started > (c.deadlineMs ?? 15_000);
  if (winner === "timeout" || late) return { exitCode: -1, stdout: "", stderr: "", timedOut: true };
  return { ...winner, timedOut: false };
}

/** Signs of an escaped exception on stderr (stdout may hold a stack trace the service reported). */
const STACK_RE = /\n\s+at .*(src\/|node:|\$bunfs|\.ts:\d)|UNCAUGHT|Maximum call stack|Invalid Date/;

/** The first two command words of argv (global flags, which may come first, and their values skipped). */
function commandOf(argv: readonly string[]): string {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i] as string;
    if (a === "--") break;
    if (a === "--log-level") i++;
    else if (!a.startsWith("-")) words.push(a);
  }
  return words.join(" ");
}

/** The invariant a result breaks, or undefined when it keeps all of them. */
export function violation(c: RunCase, r: RunResult, secrets: readonly string[]): string | undefined {
  if (r.timedOut) return "no answer within the deadline";
  if (r.exitCode === 1) return `unexpected failure (exit 1): ${r.stderr.split("\n")[0]}`;
  if (!DOCUMENTED_CODES.has(r.exitCode)) return `exit code ${r.exitCode} is not in the README's table`;
  const bad = STACK_RE.exec(r.stderr) ?? /Invalid Date/.exec(r.stdout);
  if (bad) {
    const at = bad.index;
    return `stack trace or invalid value: …${bad.input.slice(Math.max(0, at - 150), at + 100)}…`;
  }
  // Changing commands report what did change before a partial failure's exit code, `issue view A B`
  // prints the issues it found before the error of one it did not; `tracker api` prints an error
  // answer's body; `auth status` reports a state that is not logged in, then exits with its code
  // (all documented).
  const command = commandOf(c.argv);
  const reports =
    /^(issue (resolve|unresolve|reopen|archive|ignore|assign|view)|feedback (resolve|unresolve|spam)|api|auth status)$/.test(
      command,
    ) || c.argv[0] === "api";
  if (r.exitCode !== 0 && r.stdout !== "" && !reports)
    return `stdout not empty on failure: ${r.stdout.slice(0, 120)}`;
  if (r.exitCode !== 0 && !r.stderr.trim()) return "failed without saying why on stderr";
  // `auth token` prints the token on stdout: that is its job (never on stderr, though).
  const printsToken = command === "auth token";
  for (const s of secrets) {
    if (s && ((!printsToken && r.stdout.includes(s)) || r.stderr.includes(s)))
      return "a token appears in the output";
  }
  const flags = c.argv.includes("--") ? c.argv.slice(0, c.argv.indexOf("--")) : c.argv;
  // The last of --json/--no-json decides (a repeated flag's last value wins, as in gh).
  const jsonMode = flags.lastIndexOf("--json") > flags.lastIndexOf("--no-json");
  if (r.exitCode === 0 && jsonMode && !flags.includes("--help") && !flags.includes("-h")) {
    try {
      JSON.parse(r.stdout);
    } catch {
      return `--json printed no single JSON document: ${r.stdout.slice(0, 120)}`;
    }
  }
  return undefined;
}

/** The fake API and scratch dirs of one fuzz file: started before its tests, removed after. */
export function useFuzzWorld(): { api: () => FakeApi; dirs: string[] } {
  let api: FakeApi | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(() => {
    api?.stop();
    cleanup(dirs);
  });
  return {
    api: () => {
      if (!api) throw new Error("the fake API is not started yet");
      return api;
    },
    dirs,
  };
}

/** The environment of a fuzz case: a home, a config dir, the fake API and (by default) a valid token. */
export function fuzzEnv(
  apiUrl: string,
  home: string,
  configDir: string,
  token: string | null = USER_TOKEN,
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TRACKER_CONFIG_DIR: configDir,
    TRACKER_URL: apiUrl,
    TRACKER_AUTH_TOKEN: token ?? undefined,
  };
}

/** A temp dir removed by cleanup(). */
export function scratch(prefix: string, dirs: string[]): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Removes scratch dirs. */
export function cleanup(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Hostile and edge values used for flag values and positionals. */
export const NASTY_VALUES: readonly string[] = [
  "",
  " ",
  "-",
  "--",
  "-1",
  "0",
  "1e309",
  "NaN",
  "99999999999999999999",
  "../../etc/passwd",
  "\u0000",
  "\x1b]0;pwned\x07",
  "\x1b[2J",
  "a".repeat(5000),
  "%s%n%x",
  "acme/",
  "/",
  "//",
  "acme//web",
  "http://127.0.0.1:1/",
  "https://acme.sentry.io/issues/4001/",
  "file:///etc/passwd",
  "😀",
  "WEB-",
  "-n5",
  "--json=",
  "--nosuch",
  "ACME/WEB",
  "x\ny",
  "'; rm -rf / #",
];

/** Plausible values, so mutated command lines also reach deep paths. */
export const GOOD_VALUES: readonly string[] = [
  "acme/web",
  "acme/",
  "web",
  "acme",
  "WEB-4Y",
  "acme/WEB-4Y",
  "4001",
  "25",
  "3",
  "24h",
  "14d",
  "last",
  "0:100:0",
  "aaaa1111bbbb2222cccc3333dddd4444",
  "aaaa1111",
  "is:unresolved",
  "date",
];
