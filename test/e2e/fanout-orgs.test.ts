/** A short ID with no organization, for a token with 2,000 organizations: a bounded search and a hint. */
import { describe, expect, test } from "bun:test";
import { MAX_ORGS_SEARCHED } from "../../src/lib/api/organizations.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({
  setup: (state) => {
    state.projects = [];
    state.orgs = Array.from({ length: 2000 }, (_, i) => ({
      id: String(200000 + i),
      slug: `org-${String(i).padStart(4, "0")}`,
      name: `Org ${i}`,
      region: "us" as const,
      dateCreated: "2022-01-01T00:00:00.000000Z",
    }));
  },
});

describe("issue view WEB-1 with 2,000 organizations", () => {
  test("searches the first 25 the service lists, then names the cap in the hint", async () => {
    const r = await runCli(["issue", "view", "WEB-1"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "Error: Issue 'WEB-1' was not found in the organizations searched.",
        "",
        "Searched 25 of 2,000 organizations; name the organization: `tracker issue view <org>/WEB-1`.",
        "",
      ].join("\n"),
    );
    const lookups = api.requestsTo(/\/shortids\//);
    expect(lookups.map((q) => q.path.split("/")[4]).sort()).toEqual(
      Array.from({ length: MAX_ORGS_SEARCHED }, (_, i) => `org-${String(i).padStart(4, "0")}`),
    );
    // Besides the lookups: region discovery and one page of organizations.
    expect(api.requestsTo("/api/0/users/me/regions/")).toHaveLength(1);
    expect(api.requestsTo("/api/0/organizations/")).toHaveLength(1);
    expect(api.requests).toHaveLength(MAX_ORGS_SEARCHED + 2);
  });
});
