/**
 * Server JSON nested 30,000 levels deep: `log view` and `release view --max-chars` end at once
 * with one clear error (exit 30), not after seconds and gigabytes or a stack overflow; the
 * depth check itself reads the text in one pass (brackets in strings do not count).
 */
import { describe, expect, test } from "bun:test";
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../../src/lib/http/depth.ts";
import { MULTILINE_LOG } from "../fake-api/routes/logs.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => a.state.store.delete("logs") });
const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
const LEVELS = 30_000;

describe("nestsDeeperThan", () => {
  test.each([
    ["empty array", "[]", 1, false],
    ["two levels", "[[]]", 1, true],
    ["three levels within 3", '{"a":[{"b":1}]}', 3, false],
    ["three levels within 2", '{"a":[{"b":1}]}', 2, true],
    ["brackets inside strings", '["[[[[[", "\\"[[[["]', 1, false],
    ["30,000 levels", deep(LEVELS), MAX_RESPONSE_DEPTH, true],
  ])("%s", (_name, text, max, want) => {
    expect(nestsDeeperThan(text as string, max as number)).toBe(want as boolean);
  });
});

async function forgeDeep(path: string, query: string, wrap: (real: unknown) => unknown): Promise<void> {
  const res = await fetch(`${api.url}${path}${query}`, {
    headers: { authorization: `Bearer ${USER_TOKEN}` },
  });
  const raw = JSON.stringify(wrap(await res.json())).replace('"__DEEP__"', deep(LEVELS));
  api.reset();
  api.inject({ path, status: 200, raw });
}

/** The error as printed (--max-chars prints errors as one JSON object, for agents). */
const refused = (endpoint: string) =>
  `Error: Unexpected response from GET ${endpoint}: JSON nested more than 1,000 levels deep; tracker does not read it`;

test("log view: a row with a 30,000-level attribute is refused at once", async () => {
  const path = "/api/0/organizations/acme/events/";
  const first = await runCli(["log", "view", MULTILINE_LOG, "acme/web", "--json"], {
    api,
    token: USER_TOKEN,
  });
  const row = JSON.parse(first.stdout);
  await forgeDeep(path, "?dataset=logs", () => ({
    data: [{ ...row, deep: "__DEEP__" }],
    meta: { fields: {} },
  }));
  const started = performance.now();
  const r = await runCli(["log", "view", MULTILINE_LOG, "acme/web"], { api, token: USER_TOKEN });
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(r.exitCode).toBe(30);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith(refused(path));
  expect(r.stderr).not.toContain("call stack");
});

test("release view --max-chars: a 30,000-level field is refused at once", async () => {
  const path = "/api/0/organizations/acme/releases/web%401.5.0/";
  await forgeDeep(path, "?health=1", (real) => ({ ...(real as object), deep: "__DEEP__" }));
  const started = performance.now();
  const r = await runCli(["release", "view", "web@1.5.0", "acme", "--max-chars", "2000"], {
    api,
    token: USER_TOKEN,
  });
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(r.exitCode).toBe(30);
  expect(r.stdout).toBe("");
  expect(JSON.parse(r.stderr).error.message).toBe(refused(path).slice("Error: ".length));
});
