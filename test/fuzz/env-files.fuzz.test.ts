import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { fuzzEnv, NASTY_VALUES, Rng, runCase, scratch, useFuzzWorld, violation } from "./harness.ts";

/** Fixed, so every run is the same; FUZZ_SEED explores others (a failure names its seed). */
const SEED = Number(process.env.FUZZ_SEED) || 0xe7f11e;

/** Commands that read the environment, config and (without a target) the working directory. */
const COMMANDS: string[][] = [
  ["issue", "list"],
  ["issue", "list", "--json"],
  ["trace", "list"],
  ["project", "view"],
  ["auth", "status", "--json"],
  ["defaults", "--json"],
  ["org", "list"],
];

/** Environment variables and hostile values for them. */
const ENV_VALUES: Record<string, readonly string[]> = {
  TRACKER_URL: [
    "ftp://x",
    "http://",
    "not a url",
    "http://[::1",
    "https://user:pass@127.0.0.1:1/",
    " ",
    "javascript:alert(1)",
  ],
  TRACKER_AUTH_TOKEN: ["", " ", "abc\ndef", "sntryu_", "x".repeat(100_000), "tok\x1b[2Jen", "Bearer x"],
  TRACKER_TOKEN: ["abc\ndef", "\u0000"],
  TRACKER_LOG_LEVEL: ["loud", "", "TRACE", "debug\n"],
  TRACKER_ORG: ["", "a/b", "../x", "ACME", "x".repeat(300)],
  TRACKER_PROJECT: ["", "a/b", "web web"],
  TRACKER_DSN: [
    "https://@x/1",
    "not-a-dsn",
    "https://0123456789abcdef0123456789abcdef@127.0.0.1:1/999999999999999999999",
  ],
  TRACKER_CONFIG_DIR: ["/dev/null", "relative/dir", "/proc/1/nonexistent"],
  TRACKER_CLI_NO_AUTO_REPAIR: ["yes", "1"],
  HTTPS_PROXY: ["http://127.0.0.1:1", "garbage", "socks5://x"],
  NO_PROXY: ["*", ","],
  NODE_EXTRA_CA_CERTS: ["/nonexistent.pem", "/etc/passwd"],
  NO_COLOR: ["1", ""],
  HOME: ["", "/nonexistent-home"],
};

/** Working-directory contents DSN detection must survive. */
function plantFiles(rng: Rng, dir: string): string {
  mkdirSync(join(dir, ".git"), { recursive: true });
  switch (rng.int(8)) {
    case 0:
      writeFileSync(join(dir, ".env"), Buffer.from(Array.from({ length: 4096 }, () => rng.int(256))));
      return "binary .env";
    case 1:
      writeFileSync(join(dir, ".env"), `SENTRY_DSN="${"abc def\n".repeat(31_000)}`);
      return "250 KB unterminated multi-line .env value";
    case 2:
      symlinkSync(dir, join(dir, "loop"));
      symlinkSync(join(dir, "a"), join(dir, "b"));
      symlinkSync(join(dir, "b"), join(dir, "a"));
      return "symlink loops";
    case 3:
      writeFileSync(join(dir, "app.js"), `Sentry.init({ dsn: "${"https://".repeat(50_000)}" });`);
      return "huge source line";
    case 4:
      writeFileSync(
        join(dir, ".env"),
        "SENTRY_DSN=https://0123456789abcdef0123456789abcdef@127.0.0.1:1/\x00\x1b[2J42\n",
      );
      return "control characters in a DSN";
    case 5:
      mkdirSync(join(dir, ".env"));
      return ".env is a directory";
    case 6:
      writeFileSync(join(dir, "main.py"), "sentry_sdk.init(dsn=" + "(".repeat(10_000));
      return "deeply nested source";
    default:
      writeFileSync(join(dir, ".env.local"), "SENTRY_DSN=\nSENTRY_DSN='unterminated\n".repeat(1000));
      return "thousands of broken lines";
  }
}

const world = useFuzzWorld();
const dirs = world.dirs;

test(`bad environment values and malformed workspace files (seed ${SEED})`, async () => {
  const rng = new Rng(SEED);
  const failures: string[] = [];
  const names = Object.keys(ENV_VALUES);
  let ran = 0;
  for (let i = 0; i < 300; i++) {
    const cwd = scratch("tracker-fuzz-ws-", dirs);
    const configDir = scratch("tracker-fuzz-cfg-", dirs);
    const env: Record<string, string | undefined> = fuzzEnv(world.api().url, cwd, configDir);
    const said: string[] = [];
    for (let k = 1 + rng.int(2); k > 0; k--) {
      const name = rng.pick(names);
      const value = rng.chance(0.8) ? rng.pick(ENV_VALUES[name] as string[]) : rng.pick(NASTY_VALUES);
      env[name] = value;
      said.push(`${name}=${JSON.stringify(value.slice(0, 40))}`);
    }
    if (rng.chance(0.5)) said.push(plantFiles(rng, cwd));
    const argv = rng.pick(COMMANDS);
    // Detection has a time budget of its own; anything slower than this is a hang.
    const kase = { argv, env, cwd, deadlineMs: 5_000 };
    const r = await runCase(kase);
    ran++;
    const why = violation(kase, r, [USER_TOKEN]);
    if (why) failures.push(`${JSON.stringify(argv)} with ${said.join(", ")} → ${why}`);
  }
  console.log(`fuzz env-files: ${ran} cases, ${failures.length} failures (seed ${SEED})`);
  expect(failures).toEqual([]);
}, 300_000);
