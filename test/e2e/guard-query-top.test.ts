/** Issue 32 §0 guard of `query --interval`: a grouped series query asks for at most 10 top series. */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const SERIES = "/api/0/organizations/acme/events-timeseries/";
const api = useFakeApi();
const BASE = [
  "query",
  "acme/web",
  "--dataset",
  "spans",
  "-F",
  "span.op",
  "-F",
  "count()",
  "--interval",
  "1h",
];

describe("query --interval asks at most 10 top series (real CLI)", () => {
  const rows: [string, string[], string][] = [
    ["-n 50: capped at 10", ["-n", "50"], "10"],
    ["-n 1000: capped at 10", ["-n", "1000"], "10"],
    ["no -n (default 25): 10", [], "10"],
    ["-n 10: 10", ["-n", "10"], "10"],
    ["-n 4: 4", ["-n", "4"], "4"],
  ];
  for (const [name, extra, topEvents] of rows) {
    test(name, async () => {
      const r = await runCli([...BASE, ...extra, "--json"], { api, token: USER_TOKEN });
      expect(r.exitCode).toBe(0);
      const q = api.requestsTo(SERIES).map((x) => [x.query.get("groupBy"), x.query.get("topEvents")]);
      expect(q).toEqual([["span.op", topEvents]]);
    });
  }
});
