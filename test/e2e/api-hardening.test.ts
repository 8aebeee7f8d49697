/**
 * `tracker api`: paths that could leave /api/0/, headers tracker owns, the global output flags,
 * and documents too large or too deep for recursive code.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type RunOptions, runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: Omit<RunOptions, "api" | "token"> = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });

/** JSON text of arrays nested `depth` deep: `[[[...]]]`. */
const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("tracker api refuses paths that leave /api/0/", () => {
  const traversals = [
    "%2e%2e/%2e%2e/admin/",
    "%2E%2E/%2E%2E/admin/",
    "organizations/..%2f..%2fadmin/",
    "organizations/..\\..\\admin/",
    "organizations/.%2e/.%2e/admin/",
    "organizations/%2e/",
    "organizations/%252e%252e/%252e%252e/admin/",
    "organizations/..%5c..%5cadmin/",
    "organizations/.\t./admin/",
    "organizations/acme/#/../..",
    "/api/0/../admin/",
  ];
  for (const path of traversals) {
    test(`'${path}' is a validation error and nothing is sent`, async () => {
      const r = await run(["api", path]);
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toStartWith("Error: The path ");
      expect(api.requests).toEqual([]);
    });
  }

  for (const path of ["organizations/%zz/", "organizations/%", "organizations/%ff/"]) {
    test(`a malformed escape ('${path}') is a validation error, not a URI error`, async () => {
      const r = await run(["api", path]);
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toContain("malformed percent-escape");
      expect(r.stderr).not.toMatch(/URI ?error/i);
      expect(api.requests).toEqual([]);
    });
  }

  test("an ordinary path with an escape is sent, below /api/0/", async () => {
    const r = await run(["api", "organizations/%61cme/projects/"]);
    expect(r.exitCode).toBe(0);
    // The first request looks up the organization's region.
    expect(api.requests.map((q) => `${q.host} ${q.path}`)).toEqual([
      "control /api/0/organizations/acme/",
      "us /api/0/organizations/%61cme/projects/",
    ]);
  });

  test("with a path prefix in TRACKER_URL the request stays under <prefix>/api/0/", async () => {
    api.inject({ path: "/sentry/api/0/organizations/", status: 200, body: [] });
    const r = await run(["api", "organizations/"], { env: { TRACKER_URL: `${api.url}/sentry` } });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path)).toEqual(["/sentry/api/0/organizations/"]);
    const out = await run(["api", "%2e%2e/%2e%2e/x/"], { env: { TRACKER_URL: `${api.url}/sentry` } });
    expect(out.exitCode).toBe(21);
    expect(api.requests).toHaveLength(1);
  });
});

describe("tracker api -H", () => {
  const refused = [
    "Host: evil.example",
    " host : evil.example",
    "AUTHORIZATION: Bearer stolen",
    "Cookie: session=1",
    "proxy-authorization: Basic eDp5",
    "Content-Length: 0",
    "transfer-encoding: chunked",
    "X-Ok: a\r\nHost: evil.example",
    "X-Ok\n: a",
    "Bad Name: a",
  ];
  for (const header of refused) {
    test(`${JSON.stringify(header)} is refused before any request`, async () => {
      const r = await run(["api", "--header", header, "organizations/"]);
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toStartWith("Error: -H ");
      expect(api.requests).toEqual([]);
    });
  }

  test("other headers are sent", async () => {
    const r = await run(["api", "--header", "x-trace-note: hello", "organizations/"]);
    expect(r.exitCode).toBe(0);
    expect(api.requests[0]?.headers["x-trace-note"]).toBe("hello");
  });

  // needs main.ts -H change
  test("-H is --header, not help", async () => {
    const r = await run(["api", "-H", "Accept: application/json", "/organizations/"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("USAGE");
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(api.requests.map((q) => [q.path, q.headers.accept])).toEqual([
      ["/api/0/organizations/", "application/json"],
    ]);
  });
});

describe("tracker api with the output flags", () => {
  test("--jq works like gh api --jq: strings raw, one result per line", async () => {
    const r = await run(["api", "organizations/", "--jq", ".[].slug"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("acme\nglobex\ninitech\n");
  });

  test("--jq prints other values as compact JSON", async () => {
    const r = await run(["api", "organizations/", "--jq", "[.[].slug]"]);
    expect(r.stdout).toBe('["acme","globex","initech"]\n');
  });

  test("--jq applies to the whole --paginate array", async () => {
    const r = await run(["api", "organizations/acme/issues/4158/events/", "--paginate", "--jq", "length"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("150\n");
  });

  test("--fields keeps the named fields", async () => {
    const r = await run(["api", "organizations/", "--fields", "slug"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ slug: "acme" }, { slug: "globex" }, { slug: "initech" }]);
  });

  test("--format md renders markdown instead of the raw body", async () => {
    const r = await run(["api", "organizations/", "--format", "md"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("acme");
    expect(() => JSON.parse(r.stdout)).toThrow();
  });

  test("without them the body is printed as sent", async () => {
    api.inject({ path: "/api/0/organizations/", status: 200, raw: '[ {"slug" : "x"} ]' });
    const r = await run(["api", "organizations/"]);
    expect(r.stdout).toBe('[ {"slug" : "x"} ]\n');
  });

  for (const flags of [
    ["--jq", ".x"],
    ["--fields", "slug"],
    ["--format", "md"],
  ]) {
    test(`${flags[0]} on a body that is not JSON is a validation error`, async () => {
      api.inject({
        path: "/api/0/organizations/",
        status: 200,
        raw: "plain text",
        headers: { "Content-Type": "text/plain" },
      });
      const r = await run(["api", "organizations/", ...flags]);
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toContain(`${flags[0]}`);
      expect(r.stderr).toContain("work on JSON");
      expect(r.stdout).toBe("");
    });
  }
});

describe("tracker api with huge and deep documents", () => {
  const path = "/api/0/organizations/acme/big/";
  const link = (cursor: string) => ({
    Link: `<${api.url}${path}?cursor=${cursor}>; rel="next"; results="true"; cursor="${cursor}"`,
  });

  test("--paginate concatenates pages of a million items", async () => {
    const page = (n: number) => `[${Array(n).fill("0").join(",")}]`;
    api.inject({ path, status: 200, raw: page(1_000_000), headers: { ...link("0:1:0") } });
    api.inject({ path, status: 200, raw: page(50_000) });
    const r = await run(["api", "organizations/acme/big/", "--paginate"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1_050_000);
    expect(api.requestsTo(path).map((q) => q.query.get("cursor"))).toEqual([null, "0:1:0"]);
  });

  test("--paginate prints items nested 100,000 deep", async () => {
    api.inject({ path, status: 200, raw: `[${deepArrays(100_000)}]` });
    const r = await run(["api", "organizations/acme/big/", "--paginate"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`[${deepArrays(100_000)}]\n`);
  });

  test("on a terminal, --paginate prints items nested 100,000 deep compact", async () => {
    api.inject({ path, status: 200, raw: `[${deepArrays(100_000)}]` });
    const r = await run(["api", "organizations/acme/big/", "--paginate"], { terminal: { stdout: true } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`[${deepArrays(100_000)}]\n`);
  });

  test("a body nested 100,000 deep is printed compact on a terminal (indenting it is quadratic)", async () => {
    api.inject({ path, status: 200, raw: ` ${deepArrays(100_000)} ` });
    const r = await run(["api", "organizations/acme/big/"], { terminal: { stdout: true } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${deepArrays(100_000)}\n`);
  });

  for (const [name, raw] of [
    ["arrays", deepArrays(100_000)],
    ["objects", `${'{"detail":'.repeat(100_000)}1${"}".repeat(100_000)}`],
    ["field errors", `${'{"a":'.repeat(100_000)}["x"]${"}".repeat(100_000)}`],
  ] as const) {
    test(`an error body of ${name} nested 100,000 deep gives a bounded error with the status's exit`, async () => {
      api.inject({ path, status: 400, raw, headers: { "Content-Type": "application/json" } });
      const r = await run(["api", "organizations/acme/big/"]);
      expect(r.exitCode).toBe(30);
      expect(r.stderr).toMatch(/nested 10000\d levels deep/);
      expect(r.stderr).not.toContain("call stack");
      expect(r.stderr.length).toBeLessThan(2_000);
      expect(r.stdout).toBe(`${raw}\n`);
    });
  }
});
