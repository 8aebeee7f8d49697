/**
 * The read commands added with logs, spans, queries, issue tags, releases, monitors and status,
 * against the fake API. Each `setup` first runs the same command once into the case's config dir,
 * so the timed runs see the caches a returning user has (org region, project ids, issue ids, the
 * organization list): the round-trip targets at `--latency 150` assume "a known target" —
 * 1 round trip for every case here.
 */
import { TRACE_NESTED } from "../../test/fake-api/routes/traces.ts";
import type { BenchCase } from "./types.ts";

/** Runs the compiled binary once with the case's config dir (a warm-up that fills the caches). */
async function warmWith(
  args: string[],
  ctx: { apiUrl: string | undefined; configDir: string; cwd: string },
): Promise<undefined> {
  const { USER_TOKEN } = await import("../../test/fake-api/seed.ts");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("TRACKER_") || /^(https?|no)_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, {
    NO_COLOR: "1",
    TRACKER_CONFIG_DIR: ctx.configDir,
    TRACKER_URL: ctx.apiUrl ?? "",
    TRACKER_AUTH_TOKEN: USER_TOKEN,
  });
  const binary = process.env.BENCH_BINARY ?? `${import.meta.dir}/../../dist/tracker`;
  const proc = Bun.spawn([binary, ...args], { cwd: ctx.cwd, env, stdout: "ignore", stderr: "pipe" });
  const err = await new Response(proc.stderr).text();
  if ((await proc.exited) !== 0) throw new Error(`warm-up '${args.join(" ")}' failed: ${err.trim()}`);
  return undefined;
}

/** A case whose setup runs `warm` (default: the command itself) once before the timed runs. */
export function warm(name: string, args: string[], warmArgs: string[] = args): BenchCase {
  return {
    name,
    args,
    needsApi: true,
    setup: (ctx) => warmWith(warmArgs, ctx),
  };
}

const QUERY = ["query", "acme/", "--dataset", "spans", "-F", "transaction", "-F", "p95(span.duration)"];

/** Bench cases of the new read commands (all names start with "new:" for --filter). */
export const cases: BenchCase[] = [
  warm("new: log list -n 100", ["log", "list", "acme/web", "-n", "100"]),
  warm("new: log list --json", ["log", "list", "acme/web", "--json"]),
  warm("new: span list -s duration", ["span", "list", "acme/web", "-s", "duration"]),
  warm("new: query spans transaction p95", QUERY),
  warm("new: query spans --interval 1h", [...QUERY, "--interval", "1h"]),
  warm("new: issue tags WEB-4Y", ["issue", "tags", "acme/WEB-4Y"]),
  warm("new: trace logs (nested trace)", ["trace", "logs", TRACE_NESTED, "acme"]),
  warm("new: release list", ["release", "list", "acme/web"]),
  warm("new: release view web@1.5.0", ["release", "view", "web@1.5.0", "acme"]),
  warm("new: monitor list", ["monitor", "list", "acme"]),
  warm("new: status acme", ["status", "acme"]),
];
