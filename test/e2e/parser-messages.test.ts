import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("the command line, as people type it", () => {
  test("unknown flags are named as flags of the command", async () => {
    const long = await run(["trace", "list", "--nosuchflag"]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toStartWith("Error: Unknown flag --nosuchflag for tracker trace list.\n");
    const short = await run(["issue", "list", "-x"]);
    expect(short.stderr).toStartWith("Error: Unknown flag -x for tracker issue list.\n");
  });

  test("a value outside an enum is a bad flag value (exit 21), did-you-mean only when near", async () => {
    const far = await run(["trace", "list", "-s", "fast"]);
    expect(far.exitCode).toBe(21);
    expect(far.stderr).toBe("Error: 'fast' is not one of date, duration for tracker trace list.\n");
    const near = await run(["trace", "list", "-s", "dat"]);
    expect(near.stderr).toBe(
      "Error: 'dat' is not one of date, duration for tracker trace list. Did you mean date?\n",
    );
    expect(api.requests).toEqual([]);
  });

  test("unknown commands suggest only near matches", async () => {
    expect((await run(["isue", "list"])).stderr).toStartWith(
      "Error: Unknown command 'isue'. Did you mean `issue`?",
    );
    expect((await run(["xyzzy"])).stderr).toStartWith("Error: Unknown command 'xyzzy'.\n");
  });

  test("-n5 means -n 5, -t24h means -t 24h", async () => {
    const r = await run(["issue", "list", "acme/web", "-n5", "-t24h", "--json"]);
    expect(r.exitCode).toBe(0);
    const q = api.requestsTo("/api/0/organizations/acme/issues/")[0]?.query;
    expect([q?.get("limit"), q?.get("statsPeriod")]).toEqual(["5", "24h"]);
  });

  test("tracker help [command…] is --help", async () => {
    const a = await run(["help", "issue", "list"]);
    const b = await run(["issue", "list", "--help"]);
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain("tracker issue list");
    expect((await run(["help"])).stdout).toContain("USAGE");
  });

  test("trace list -t sets the window; the default stays 7d", async () => {
    await run(["trace", "list", "acme/web", "-t", "24h", "--json"]);
    await run(["trace", "list", "acme/web", "--json"]);
    expect(
      api.requestsTo("/api/0/organizations/acme/events/").map((q) => q.query.get("statsPeriod")),
    ).toEqual(["24h", "7d"]);
  });
});
