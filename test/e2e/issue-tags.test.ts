import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const TAGS = "/api/0/organizations/acme/issues/4001/tags/";
const api = useFakeApi();

/** A config dir where the org's region is already known (so only the command's own calls remain). */
async function warmDir(): Promise<string> {
  const configDir = tempDir();
  const r = await runCli(["org", "view", "acme", "--json"], { api, token: USER_TOKEN, configDir });
  expect(r.exitCode).toBe(0);
  api.reset();
  return configDir;
}

/** stdout and stderr on a terminal, the fake's clock as "now" (relative times are fixed). */
const onTerminal = (args: string[], configDir: string) =>
  runOnTerminal(args, { api, token: USER_TOKEN, configDir, now: FAKE_NOW_MS });

describe("issue tags (real CLI)", () => {
  test("every key with its top values' shares; <org>/<id> is one request", async () => {
    const configDir = await warmDir();
    const r = await onTerminal(["issue", "tags", "acme/4001"], configDir);
    expect(r.exitCode).toBe(0);
    const issue = findIssue(api.state, "4001");
    const other = issue?.environment === "production" ? "staging" : "production";
    expect(r.stdout.split("\n").slice(0, 5)).toEqual([
      "KEY          TOP VALUES",
      `environment  ${issue?.environment} 82% · ${other} 18%`,
      "release      web@2.4.0 50% · web@2.3.1 30% · web@2.3.0 20%",
      "browser      Chrome 131 55% · Safari 18 25% · Firefox 133 15%",
      `level        ${issue?.level} 100%`,
    ]);
    expect(r.stderr).toBe("All values of one key: tracker issue tags acme/4001 <key>\n");
    expect(api.requests.map((x) => `${x.path}?${x.query}`)).toEqual([`${TAGS}?limit=3`]);
  });

  test("<org>/<SHORT-ID> goes straight to the tags endpoint (one request); piped rows are TSV", async () => {
    const configDir = await warmDir();
    const issue = findIssue(api.state, "4001");
    const r = await runCli(["issue", "tags", `acme/${issue?.shortId}`], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")[1]).toBe("release\tweb@2.4.0\t50%\tweb@2.3.1\t30%\tweb@2.3.0\t20%");
    expect(api.requests.map((x) => x.path)).toEqual([
      `/api/0/organizations/acme/issues/${issue?.shortId}/tags/`,
    ]);
  });

  test("--json is the service's data", async () => {
    const r = await runCli(["issue", "tags", "acme/4001", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.map((t: { key: string }) => t.key)).toEqual([
      "environment",
      "release",
      "browser",
      "level",
      "url",
    ]);
    expect(doc[1]).toMatchObject({ key: "release", name: "Release", uniqueValues: 3 });
    expect(doc[1].topValues[0]).toMatchObject({
      key: "release",
      value: "web@2.4.0",
      count: expect.any(Number),
    });
  });

  test("a key: its values with counts, paged (-n, -c last in a new run), most frequent first", async () => {
    const configDir = await warmDir();
    const first = await runCli(["issue", "tags", "acme/4001", "url", "-n", "120"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(first.exitCode).toBe(0);
    const rows = first.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(120);
    expect(rows[0]).toMatch(/^https:\/\/example\.com\/page\/1\t\d+\t2026-01-\d\dT[\d:]+Z$/);
    const counts = rows.map((l) => Number(l.split("\t")[1]));
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const values = `${TAGS}url/values/`;
    expect(api.requestsTo(values).map((x) => [x.query.get("per_page"), x.query.get("sort")])).toEqual([
      ["100", "-count"],
      ["20", "-count"],
    ]);
    api.reset();
    const next = await runCli(["issue", "tags", "acme/4001", "url", "-n", "100", "-c", "last", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(next.exitCode).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ hasMore: false });
    expect(JSON.parse(next.stdout).data).toHaveLength(30);
    expect(api.requests.map((x) => x.query.get("cursor"))).toEqual(["0:120:0"]);
    api.reset();
    const past = await runCli(["issue", "tags", "acme/4001", "url", "-c", "last", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(JSON.parse(past.stdout)).toEqual({ data: [], hasMore: false });
    expect(api.requests).toEqual([]);
  });

  test("a key on a terminal: VALUE, COUNT, LAST SEEN and the next-page tip", async () => {
    const configDir = await warmDir();
    const r = await onTerminal(["issue", "tags", "acme/4001", "environment", "-n", "1"], configDir);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^VALUE +COUNT {2}LAST SEEN$/);
    expect(r.stdout.split("\n")[1]).toMatch(/^(production|staging) +[\d,]+ {2}\d+m ago$/);
    expect(r.stderr).toBe("More values: tracker issue tags acme/4001 environment -c last\n");
  });

  test("an unknown key: exit 23 naming it, after checking the issue exists", async () => {
    const r = await runCli(["issue", "tags", "acme/4001", "nosuchkey"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: Tag 'nosuchkey' was not found on issue acme/4001.");
  });

  test("an unknown issue: the resolver's error (exit 23)", async () => {
    const r = await runCli(["issue", "tags", "acme/999999"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toStartWith("Error: Issue 999999 was not found in organization 'acme'.");
  });

  test.each([
    [["-n", "0"], "Error: --limit must be from 1 to 1000, got 0.\n"],
    [["-c", "bogus"], "Error: --cursor must be 'last' or a cursor like 0:100:0, got 'bogus'.\n"],
  ])("bad flag %p → exit 21 before any request", async (extra, message) => {
    const r = await runCli(["issue", "tags", "acme/4001", "url", ...extra], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith(message);
    expect(api.requests).toEqual([]);
  });
});
