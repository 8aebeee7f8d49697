import { expect, test } from "bun:test";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import type { Fault } from "../fake-api/types.ts";
import { fuzzEnv, Rng, runCase, scratch, useFuzzWorld, violation } from "./harness.ts";

/** Fixed, so every run is the same; FUZZ_SEED explores others (a failure names its seed). */
const SEED = Number(process.env.FUZZ_SEED) || 0xfa017;
/** More requests than one command's pages plus retries could ever need. */
const MAX_REQUESTS = 60;

/** Read commands, each reaching a different mix of endpoints. */
const COMMANDS: string[][] = [
  ["org", "list"],
  ["org", "view", "acme"],
  ["project", "list", "acme"],
  ["project", "view", "acme/web"],
  ["issue", "list", "acme/web", "-n", "150"],
  ["issue", "list", "acme/"],
  ["issue", "view", "acme/WEB-4Y"],
  ["issue", "view", "4001"],
  ["issue", "explain", "acme/WEB-3"],
  ["trace", "list", "acme/web"],
  ["trace", "view", TRACE_NESTED, "acme"],
  ["auth", "status"],
];

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** What a hostile or broken server may answer, in body and status. */
function faultsFor(rng: Rng): Fault[] {
  const all: Fault[] = [
    { status: 500, body: { detail: "Internal Error" }, times: Infinity },
    {
      status: 502,
      raw: "<html><body>Bad Gateway</body></html>",
      headers: { "Content-Type": "text/html" },
      times: Infinity,
    },
    { status: 503, headers: { "Retry-After": "0" }, body: { detail: "busy" } },
    { status: 429, headers: { "Retry-After": "86400" }, body: { detail: "slow down" }, times: Infinity },
    { status: 429, headers: { "Retry-After": "-5" }, body: {}, times: Infinity },
    { status: 401, body: { detail: `Invalid token '${USER_TOKEN}'` }, times: Infinity },
    { status: 403, body: { detail: "You do not have permission \x1b]0;pwned\x07" } },
    { status: 404, body: { detail: "The requested resource does not exist" } },
    { status: 400, body: { detail: { nested: ["weird", 1, null] } } },
    { status: 200, raw: '{"id": "1", "title": "trunc' },
    { status: 200, raw: "<!doctype html><title>Login</title>", headers: { "Content-Type": "text/html" } },
    { status: 200, raw: "" },
    { status: 200, raw: "null" },
    { status: 200, raw: "42" },
    { status: 200, body: { unexpected: true } },
    { status: 200, body: [{ id: 7, slug: null, title: ["x"], count: {} }] },
    { status: 200, raw: nested(20_000) },
    { status: 200, body: [{ id: "1", slug: "x".repeat(10_000_000), name: "big" }] },
    {
      status: 200,
      body: Array.from({ length: 10_000 }, (_, i) => ({ id: String(i), slug: `s${i}`, name: `n${i}` })),
    },
    { status: 204 },
    { status: 301, headers: { Location: "http://127.0.0.1:1/elsewhere" } },
    { disconnect: "before-response", times: Infinity },
    { disconnect: "mid-body", status: 200, body: { id: "1", title: "x".repeat(2000) } },
    { bodyDelayMs: 200, status: 200, body: [] },
    {
      status: 200,
      body: [],
      headers: { Link: '<http://x/?cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"' },
      times: Infinity,
    },
  ];
  return [rng.pick(all)];
}

const world = useFuzzWorld();
const dirs = world.dirs;

test(`every read command against hostile or broken answers (seed ${SEED})`, async () => {
  const rng = new Rng(SEED);
  const failures: string[] = [];
  const home = scratch("tracker-fuzz-home-", dirs);
  let ran = 0;
  for (const argv of COMMANDS) {
    for (let i = 0; i < 25; i++) {
      world.api().reset();
      const configDir = scratch("tracker-fuzz-cfg-", dirs);
      const [fault] = faultsFor(rng);
      // Hit a random request of the command's chain: the first, or every one after a few passed.
      world.api().inject({
        ...(fault as Fault),
        ...(rng.chance(0.5) ? {} : { path: /\/(issues|projects|events|shortids)\// }),
      });
      const withJson = rng.chance(0.5) ? [...argv, "--json"] : argv;
      const kase = {
        argv: withJson,
        env: fuzzEnv(world.api().url, home, configDir),
        cwd: home,
        deadlineMs: 60_000,
      };
      const r = await runCase(kase);
      ran++;
      const why = violation(kase, r, [USER_TOKEN]);
      if (why)
        failures.push(`${JSON.stringify(withJson)} with ${JSON.stringify(fault).slice(0, 100)} → ${why}`);
      // One retry budget per chain and a 50-page cap: a command never floods a failing server.
      if (world.api().requests.length > MAX_REQUESTS) {
        failures.push(
          `${JSON.stringify(withJson)} with ${JSON.stringify(fault).slice(0, 80)}: ${world.api().requests.length} requests`,
        );
      }
      if (/\x1b\]|\x07/.test(r.stderr) || /\x1b\]|\x07/.test(r.stdout)) {
        failures.push(
          `${JSON.stringify(withJson)}: a terminal control sequence from the server reached the output`,
        );
      }
    }
  }
  console.log(`fuzz api-faults: ${ran} cases, ${failures.length} failures (seed ${SEED})`);
  expect(failures).toEqual([]);
}, 300_000);
