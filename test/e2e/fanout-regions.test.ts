/** `org list` against a service that names 200 regions, most of them dead: bounded work, one warning. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { json } from "../fake-api/http.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

/** Requests each path of the always-503 server received. */
const unavailableHits = new Map<string, number>();
let unavailable: ReturnType<typeof Bun.serve> | undefined;
/** A loopback port nothing listens on (a server's, after it stopped). */
let refusedPort = 0;

beforeAll(async () => {
  unavailable = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      unavailableHits.set(path, (unavailableHits.get(path) ?? 0) + 1);
      return new Response("503 Service Temporarily Unavailable", {
        status: 503,
        headers: { "Retry-After": "0", "Content-Type": "text/html" },
      });
    },
  });
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  refusedPort = closed.port ?? 0;
  await closed.stop(true);
});

afterAll(() => unavailable?.stop(true));

/** Region `i` of the dead ones: even ones answer 503, odd ones refuse the connection. */
function deadRegion(i: number): string {
  return i % 2 === 0
    ? `http://127.0.0.1:${unavailable?.port}/r${i}`
    : `http://127.0.0.1:${refusedPort}/r${i}`;
}

const api = useFakeApi({
  routes: [
    {
      method: "GET",
      pattern: "/api/0/users/me/regions/",
      hosts: "control",
      scopes: ["org:read"],
      handler: (req) => {
        // The live regions sit among the first ten; 190 more dead ones follow.
        const urls = [
          ...[0, 1, 2, 3].map(deadRegion),
          req.state.urls.us,
          ...[4, 5, 6, 7].map(deadRegion),
          req.state.urls.de,
          ...Array.from({ length: 190 }, (_, i) => deadRegion(i + 8)),
        ];
        return json({ regions: urls.map((url, i) => ({ name: `r${i}`, url })) });
      },
    },
  ],
});

describe("org list with 200 regions, most dead", () => {
  test("asks only the first 10, says once how many were skipped, and warns about the failed ones in one line", async () => {
    const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { slug: string }[]).map((o) => o.slug)).toEqual([
      "acme",
      "globex",
      "initech",
    ]);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toBe("Warning: The service names 200 regions; asking the first 10 and skipping 190.");
    expect(warnings[1]).toMatch(
      /^Warning: 8 regions could not be reached: 127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+ and 5 more\.$/,
    );
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(2);
    // The fake: one discovery, one listing per live region.
    expect(api.requests.map((q) => `${q.host} ${q.path}`).sort()).toEqual([
      "control /api/0/users/me/regions/",
      "de /api/0/organizations/",
      "us /api/0/organizations/",
    ]);
    // The 503 regions among the first ten were asked (each at most three attempts); none beyond.
    expect([...unavailableHits.keys()].sort()).toEqual(
      ["/r0", "/r2", "/r4", "/r6"].map((r) => `${r}/api/0/organizations/`),
    );
    for (const hits of unavailableHits.values()) expect(hits).toBeLessThanOrEqual(3);
  }, 20_000);
});
