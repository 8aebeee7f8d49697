/**
 * A pasted issue (or event) URL works wherever an issue is taken: hosted (`https://<org>.sentry.io/
 * issues/<id>/`) and self-hosted (`…/organizations/<org>/issues/<id>/`), with a query or fragment.
 */
import { describe, expect, test } from "bun:test";
import { setAutofixScenario } from "../fake-api/routes/autofix.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const urls = (id: string) => [
  `https://acme.sentry.io/issues/${id}/?project=300001&query=is%3Aunresolved#activity`,
  `${api.url}/organizations/acme/issues/${id}/events/latest/?environment=prod`,
];

/** Each command that takes an issue, with what shows it acted on issue 4001 of acme. */
const commands: [string, (ref: string) => string[], string][] = [
  ["issue view", (r) => ["issue", "view", r, "--json"], '"shortId":"WEB-1"'],
  ["issue events", (r) => ["issue", "events", r, "-n", "1", "--json"], '"data"'],
  ["issue resolve", (r) => ["issue", "resolve", r, "--json"], '"status":"resolved"'],
  ["issue unresolve", (r) => ["issue", "unresolve", r, "--json"], '"status":"unresolved"'],
  ["issue archive", (r) => ["issue", "archive", r, "--json"], '"status":"ignored"'],
  ["issue assign", (r) => ["issue", "assign", r, "me", "--json"], '"assignedTo"'],
  ["issue note", (r) => ["issue", "note", r, "seen in prod", "--json"], "seen in prod"],
];

describe("issue URLs are accepted by every command that takes an issue", () => {
  for (const [name, args, expected] of commands) {
    test(name, async () => {
      for (const url of urls("4001")) {
        const r = await runCli(args(url), { api, token: USER_TOKEN });
        expect({ url, code: r.exitCode, err: r.stderr }).toEqual({ url, code: 0, err: expect.any(String) });
        expect(r.stdout).toContain(expected);
        // The organization came from the URL: no org search, no DSN scan, no question.
        expect(api.requests.some((q) => q.path === "/api/0/organizations/")).toBe(false);
        expect(api.requests.every((q) => !q.path.includes("/shortids/"))).toBe(true);
        api.reset();
      }
    });
  }

  test("issue explain and issue plan", async () => {
    setAutofixScenario(api.state, "4001", { pollsPerStage: 1 });
    for (const cmd of ["explain", "plan"]) {
      const r = await runCli(["issue", cmd, urls("4001")[0] as string, "--json"], { api, token: USER_TOKEN });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).issueId).toBe("4001");
    }
  });

  test("a URL without an issue is refused as an issue, before any request", async () => {
    const r = await runCli(["issue", "view", "https://acme.sentry.io/projects/web/"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith("Error: Invalid issue 'https://acme.sentry.io/projects/web/'");
    expect(api.requests).toEqual([]);
  });
});
