/**
 * Guards of issue writes: a write whose connection dropped after it was sent is never resent (the
 * server may have applied it), and bulk updates go out in batches of at most 100 ids.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("a dropped write is not resent", () => {
  test("issue note: the POST reached the server once; the run fails with a network error", async () => {
    const path = "/api/0/organizations/acme/issues/4158/comments/";
    api.inject({ path, method: "POST", disconnect: "before-response" });
    const r = await run(["issue", "note", "acme/WEB-4Y", "Fixed by #1234"]);
    expect(r.exitCode).toBe(31);
    expect(r.stdout).toBe("");
    expect(api.requestsTo(path, "POST")).toHaveLength(1);
  });

  test("issue note: a body cut off mid-transfer is not resent either; the run fails (exit 30)", async () => {
    const path = "/api/0/organizations/acme/issues/4158/comments/";
    api.inject({
      path,
      method: "POST",
      status: 201,
      body: { id: "1", data: { text: "x" } },
      disconnect: "mid-body",
    });
    const r = await run(["issue", "note", "acme/WEB-4Y", "Fixed by #1234"]);
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("Incomplete response");
    expect(api.requestsTo(path, "POST")).toHaveLength(1);
  });
});

test("issue resolve: a PUT whose connection was reset is sent once (Bun's fetch resent it on a kept-alive connection)", async () => {
  // GETs come first (the short ID lookup), so a kept-alive connection exists for the PUT to reuse.
  const path = "/api/0/organizations/acme/issues/4158/";
  api.inject({ path, method: "PUT", disconnect: "before-response" });
  const r = await run(["issue", "resolve", "acme/WEB-4Y"]);
  expect(r.exitCode).toBe(31);
  expect(api.requestsTo(path, "PUT")).toHaveLength(1);
});

describe("bulk updates", () => {
  test("150 issues by query with --yes: PUTs of at most 100 explicit ids, 150 in all", async () => {
    const r = await run([
      "issue",
      "resolve",
      "-q",
      "level:error",
      "acme/web",
      "-n",
      "150",
      "--yes",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.changed).toHaveLength(150);
    expect(doc.failed).toEqual([]);
    const puts = api.requestsTo("/api/0/organizations/acme/issues/", "PUT");
    expect(puts.length).toBeGreaterThanOrEqual(2);
    const sizes = puts.map((p) => p.query.getAll("id").length);
    for (const n of sizes) expect(n).toBeLessThanOrEqual(100);
    const ids = puts.flatMap((p) => p.query.getAll("id"));
    expect(new Set(ids).size).toBe(150);
    expect(ids).toHaveLength(150);
  });
});
