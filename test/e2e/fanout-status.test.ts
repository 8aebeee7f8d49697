/** `tracker status` with no organization, for a token with 2,001 organizations: 25 looked at, and said. */
import { expect, test } from "bun:test";
import { MAX_ORGS_SEARCHED } from "../../src/lib/api/organizations.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({
  setup: (state) => {
    state.projects = [];
    state.orgs = Array.from({ length: 2001 }, (_, i) => ({
      id: String(200000 + i),
      slug: `org-${String(i).padStart(4, "0")}`,
      name: `Org ${i}`,
      region: "us" as const,
      dateCreated: "2022-01-01T00:00:00.000000Z",
    }));
  },
});

test("searches the first 25 organizations (3 searches each) and says so on stderr", async () => {
  const r = await runCli(["status", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout).data).toHaveLength(MAX_ORGS_SEARCHED);
  expect(r.stderr).toBe("Showing 25 of 2,001 organizations; name the ones you want: tracker status <org>…\n");
  const searched = new Set(api.requestsTo(/\/issues\/$/).map((q) => q.path.split("/")[4]));
  expect(searched.size).toBe(MAX_ORGS_SEARCHED);
  expect(api.requestsTo(/\/issues\/$/)).toHaveLength(3 * MAX_ORGS_SEARCHED);
  // Besides the searches: region discovery and one page of organizations.
  expect(api.requests.length).toBeLessThanOrEqual(3 * MAX_ORGS_SEARCHED + 2);
});

test("named organizations are not capped and nothing is said", async () => {
  const r = await runCli(["status", "org-0000", "org-2000", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout).data.map((p: { org: string }) => p.org)).toEqual(["org-0000", "org-2000"]);
});
