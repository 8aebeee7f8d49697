/**
 * Mutation check of the critical paths: applies one deliberate break at a time to a source file,
 * runs the tests that guard it, and reports each break the tests did not catch ("survived").
 * A break whose text is no longer in the file is reported as stale, so the list cannot silently
 * stop testing anything. Files are restored after each run, also on Ctrl-C.
 *
 *   bun run script/mutate.ts [--filter text] [--list]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { MUTATIONS, type Mutation } from "./mutations.ts";

const ROOT = resolve(import.meta.dir, "..");
/** A test run that takes longer than this counts as killed (a hang is a failure too). */
const TEST_TIMEOUT_MS = 180_000;

type Outcome = "killed" | "survived" | "stale";

const restoreQueue = new Map<string, string>();
function restoreAll(): void {
  for (const [path, text] of restoreQueue) writeFileSync(path, text);
  restoreQueue.clear();
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    restoreAll();
    process.exit(130);
  });
}

/** Applies one mutation, runs its tests, restores the file. */
async function runMutation(m: Mutation): Promise<Outcome> {
  const path = join(ROOT, m.file);
  const original = readFileSync(path, "utf8");
  const count = original.split(m.find).length - 1;
  if (count !== 1) return "stale";
  restoreQueue.set(path, original);
  try {
    writeFileSync(path, original.replace(m.find, m.replace));
    const proc = Bun.spawn(["bun", "test", ...m.tests], {
      cwd: ROOT,
      stdout: "ignore",
      stderr: "ignore",
      env: { ...process.env, TRACKER_MUTATION: m.name },
    });
    const timer = setTimeout(() => proc.kill(), TEST_TIMEOUT_MS);
    const code = await proc.exited;
    clearTimeout(timer);
    return code === 0 ? "survived" : "killed";
  } finally {
    writeFileSync(path, original);
    restoreQueue.delete(path);
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const filterAt = args.indexOf("--filter");
  const filter = filterAt >= 0 ? args[filterAt + 1] : undefined;
  const chosen = MUTATIONS.filter((m) => !filter || m.name.includes(filter));
  if (args.includes("--list")) {
    for (const m of chosen) console.log(`${m.name}  (${m.file})`);
    process.exit(0);
  }
  const results: { m: Mutation; outcome: Outcome }[] = [];
  for (const m of chosen) {
    const outcome = await runMutation(m);
    results.push({ m, outcome });
    console.log(`${outcome.padEnd(8)} ${m.name}`);
  }
  const n = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  console.log(
    `\n${results.length} mutations: ${n("killed")} killed, ${n("survived")} survived, ${n("stale")} stale`,
  );
  process.exit(n("survived") + n("stale") > 0 ? 1 : 0);
}
