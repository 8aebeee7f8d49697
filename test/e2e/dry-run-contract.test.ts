/**
 * One --dry-run shape: every change command prints {"dryRun": true, "requests": [{method, path,
 * body?}], …} with --json, and sends nothing.
 */
import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const CASES: [string, string[]][] = [
  ["release create", ["release", "create", "web@9.0.0", "acme/web"]],
  ["release finalize", ["release", "finalize", "web@1.5.0", "acme"]],
  ["issue resolve (one)", ["issue", "resolve", "acme/WEB-1"]],
  ["issue resolve (several)", ["issue", "resolve", "acme/WEB-1", "acme/WEB-2"]],
  ["issue merge", ["issue", "merge", "acme/WEB-1", "acme/WEB-2", "--into", "acme/WEB-1"]],
];

test.each(CASES)(
  "%s --dry-run --json: {dryRun: true, requests: [...]}, nothing changed",
  async (_name, args) => {
    const configDir = tempDir();
    // Resolving the references may read; nothing may be written.
    const r = await runCli([...args, "--dry-run", "--json"], { api, token: USER_TOKEN, configDir });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(true);
    expect(Array.isArray(doc.requests)).toBe(true);
    expect(doc.requests.length).toBeGreaterThan(0);
    for (const req of doc.requests) {
      expect(["POST", "PUT", "DELETE"]).toContain(req.method);
      expect(req.path).toStartWith("/api/0/");
    }
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  },
);

test("issue resolve of two issues of one organization: one bulk PUT with both ids", async () => {
  const r = await runCli(["issue", "resolve", "acme/WEB-1", "acme/WEB-2", "--dry-run", "--json"], {
    api,
    token: USER_TOKEN,
    configDir: tempDir(),
  });
  const doc = JSON.parse(r.stdout);
  expect(doc.requests).toEqual([
    {
      method: "PUT",
      path: "/api/0/organizations/acme/issues/?id=4001&id=4002",
      body: { status: "resolved" },
    },
  ]);
});

test("issue resolve --in a release the service does not know: names it (exit 23), not a bare 400", async () => {
  const r = await runCli(["issue", "resolve", "acme/WEB-1", "--in", "backend@9.9.9"], {
    api,
    token: USER_TOKEN,
    configDir: tempDir(),
  });
  expect(r.exitCode).toBe(23);
  expect(r.stderr).toContain("Release backend@9.9.9 was not found in acme.");
  expect(r.stderr).toContain("tracker release list acme/");
});
