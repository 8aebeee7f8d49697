import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import {
  commandCatalog,
  fuzzEnv,
  GOOD_VALUES,
  NASTY_VALUES,
  Rng,
  runCase,
  scratch,
  type CommandShape,
  useFuzzWorld,
  violation,
} from "./harness.ts";

/** Fixed, so every run is the same; FUZZ_SEED explores others (a failure names its seed). */
const SEED = Number(process.env.FUZZ_SEED) || 0x7a11ce;
const CASES = 2000;

// Commands whose real work cannot run in a test process: upgrade replaces the running executable,
// mcp serves on the test runner's stdin, and login without a token waits for a browser approval.
// Nor can commands that run or write what argv names: monitor run executes its command, sourcemap
// inject/upload walk (and inject rewrites) the paths given, which fuzz values like "/" would make the
// machine's files; log list --follow runs until Ctrl-C.
function runnable(c: CommandShape, argv: readonly string[]): boolean {
  const line = c.words.join(" ");
  if (line === "upgrade") return false;
  if (line === "monitor run" || /^sourcemaps? (inject|upload)$/.test(line)) return false;
  if (
    line === "log list" &&
    argv.some((a) => a === "-f" || a.startsWith("--follow") || /^-[a-zA-Z]*f/.test(a))
  )
    return false;
  if (line === "mcp") return argv.includes("--print-config");
  if (line === "auth login") return argv.includes("--token");
  return true;
}

function flagTokens(rng: Rng, c: CommandShape): string[] {
  const f = rng.pick(c.flags);
  if (f.kind === "boolean") return [rng.chance(0.8) ? `--${f.name}` : `--no-${f.name}`];
  const pool =
    f.kind === "enum" && f.values
      ? [...f.values, ...f.values, ...NASTY_VALUES]
      : [...GOOD_VALUES, ...NASTY_VALUES];
  const value = rng.pick(pool);
  return rng.chance(0.2) ? [`--${f.name}=${value}`] : [`--${f.name}`, value];
}

function mutate(rng: Rng, argv: string[]): string[] {
  const out = [...argv];
  const at = rng.int(out.length + 1);
  switch (rng.int(6)) {
    case 0:
      out.splice(at, 1);
      break;
    case 1:
      if (out[at] !== undefined) out.splice(at, 0, out[at] as string);
      break;
    case 2: {
      const b = rng.int(out.length);
      [out[at], out[b]] = [out[b] as string, out[at] as string];
      break;
    }
    case 3:
      out.splice(at, 0, rng.pick(NASTY_VALUES));
      break;
    case 4:
      if (out[0]) out[0] = out[0].slice(0, -1);
      break;
    default:
      if (out[at]) out[at] = (out[at] as string).toUpperCase();
  }
  return out.filter((t) => t !== undefined);
}

/** One generated command line for a command. */
export function generateArgv(rng: Rng, c: CommandShape): string[] {
  const argv = [...c.words];
  for (let i = rng.int(4); i > 0 && c.flags.length > 0; i--) argv.push(...flagTokens(rng, c));
  for (let i = rng.int(c.positionals + 2); i > 0; i--) argv.push(rng.pick([...GOOD_VALUES, ...NASTY_VALUES]));
  if (rng.chance(0.5)) argv.push("--json");
  return rng.chance(0.3) ? mutate(rng, argv) : argv;
}

const world = useFuzzWorld();
const dirs = world.dirs;

test(`mutated command lines for every command (${CASES} cases, seed ${SEED})`, async () => {
  const rng = new Rng(SEED);
  const catalog = await commandCatalog();
  const configDir = scratch("tracker-fuzz-cfg-", dirs);
  const home = scratch("tracker-fuzz-home-", dirs);
  const failures: string[] = [];
  let ran = 0;
  const codes = new Map<number, number>();
  while (ran < CASES) {
    const c = rng.pick(catalog);
    const argv = generateArgv(rng, c);
    if (!runnable(c, argv) || argv.some((a) => /^(upgrade|mcp)$/i.test(a) && a !== c.words[0])) continue;
    if (/^(upgrade|mcp)/i.test(argv[0] ?? "") && !runnable(c, argv)) continue;
    ran++;
    const env = fuzzEnv(world.api().url, home, configDir, rng.chance(0.85) ? USER_TOKEN : null);
    const kase = { argv, env, cwd: home };
    const r = await runCase(kase);
    codes.set(r.exitCode, (codes.get(r.exitCode) ?? 0) + 1);
    const why = violation(kase, r, [USER_TOKEN]);
    if (why) failures.push(`${JSON.stringify(argv)} → ${why}`);
  }
  console.log(
    `fuzz argv: ${ran} cases, ${failures.length} failures (seed ${SEED}); exit codes ${JSON.stringify(Object.fromEntries(codes))}, ${world.api().requests.length} API requests`,
  );
  expect(failures).toEqual([]);
}, 240_000);
