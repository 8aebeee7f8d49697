/**
 * The total the service reports for an issue search (`X-Hits`, API.md §19.2): in the human footer
 * ("Showing 25 of 1,234; more exist") and as `"total"` in `--json`; neither when the header is absent.
 */
import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { issueRoutes, issueStore } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import type { FakeRequest, Route } from "../fake-api/types.ts";
import { type RunOptions, runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

/** When set, the issue search answers without X-Hits (a server whose paginator did not count). */
let withoutHits = false;
const search = issueRoutes.find((r) => r.pattern === "/api/0/organizations/:org/issues/") as Route;
const uncounted: Route = {
  ...search,
  handler: async (req: FakeRequest) => {
    const res = await search.handler(req);
    if (withoutHits) {
      res.headers.delete("X-Hits");
      res.headers.delete("X-Max-Hits");
    }
    return res;
  },
};

const api = useFakeApi({ routes: [uncounted], afterReset: () => (withoutHits = false) });

/** What the fake counts for `is:unresolved` over the last 90 days of one org's projects. */
function unresolvedIn(projectIds: readonly string[]): number {
  const since = FAKE_NOW_MS - 90 * 86_400_000;
  return issueStore(api.state).issues.filter(
    (x) => projectIds.includes(x.projectId) && x.status === "unresolved" && x.lastSeen >= since,
  ).length;
}

async function list(args: string[], terminal?: RunOptions["terminal"]) {
  return runCli(["issue", "list", ...args], {
    api,
    token: USER_TOKEN,
    ...(terminal ? { terminal, env: { NO_COLOR: "1" } } : {}),
  });
}

describe("issue list total (X-Hits)", () => {
  test("--json carries the service's total of one project's matches", async () => {
    const r = await list(["acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.data).toHaveLength(25);
    expect(page.total).toBe(unresolvedIn(["300001"]));
    expect(page.total).toBeGreaterThan(1000);
  });

  test("the org-wide listing carries the total of every project", async () => {
    const r = await list(["acme/", "-n", "5", "--json"]);
    const ids = api.state.projects.filter((p) => p.org === "acme").map((p) => p.id);
    expect(JSON.parse(r.stdout).total).toBe(unresolvedIn(ids));
  });

  test("several pages: the total is the first request's, not a sum", async () => {
    const r = await list(["acme/web", "-n", "150", "--json"]);
    expect(api.requestsTo("/api/0/organizations/acme/issues/")).toHaveLength(2);
    expect(JSON.parse(r.stdout).total).toBe(unresolvedIn(["300001"]));
  });

  test("the footer says how many are shown of how many, grouped by thousands", async () => {
    const total = unresolvedIn(["300001"]).toLocaleString("en-US");
    expect(total).toContain(",");
    const r = await list(["acme/web", "-n", "3"], { stdout: true, stderr: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`\nShowing 3 of ${total}; more exist. Next page: `);
    // Everything shown: no footer at all.
    const few = await list(["globex/billing"], { stdout: true, stderr: true });
    expect(few.stderr).not.toContain("Showing");
  });

  test("without X-Hits: no total in --json, no count in the footer", async () => {
    withoutHits = true;
    const json = await list(["acme/web", "-n", "3", "--json"]);
    expect(json.exitCode).toBe(0);
    const page = JSON.parse(json.stdout);
    expect(page.data).toHaveLength(3);
    expect("total" in page).toBe(false);
    const human = await list(["acme/web", "-n", "3"], { stdout: true });
    expect(human.stdout.split("\n")[0]).toBe(
      "Issues in acme/web (is:unresolved, sorted by last seen, last 90d):",
    );
  });
});
