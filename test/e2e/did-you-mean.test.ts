/** Near misses in slugs get a did-you-mean by edit distance, and an org where a project belongs says so. */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("did-you-mean for slugs", () => {
  test("a project typo in <org>/<project>: the near project is suggested", async () => {
    const r = await run(["issue", "list", "acme/wroker"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: Project 'acme/wroker' was not found.");
    expect(r.stderr).toContain("Did you mean acme/worker?");
    expect(r.stderr).not.toContain("case-sensitive");
    expect(r.stdout).toBe("");
  });

  test("two swapped letters count as one edit: acme/wbe suggests acme/web", async () => {
    const r = await run(["project", "view", "acme/wbe"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Did you mean acme/web?");
    expect(r.stdout).toBe("");
  });

  test("an organization typo: the near organization is suggested, with the project kept", async () => {
    const r = await run(["trace", "list", "acmee/web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: Organization 'acmee' was not found.");
    expect(r.stderr).toContain("Did you mean acme/web?");
  });

  test("a case variant still says slugs are case-sensitive", async () => {
    const r = await run(["issue", "list", "acme/Web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Did you mean acme/web? Slugs are case-sensitive.");
  });

  test("a bare project typo is matched across organizations", async () => {
    const r = await run(["issue", "list", "biling"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: Project 'biling' was not found in any organization you can access.");
    expect(r.stderr).toContain("Did you mean globex/billing?");
  });

  test("nothing near: the listing command is suggested instead", async () => {
    const r = await run(["issue", "list", "acme/zzzzzzzz"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).not.toContain("Did you mean");
    expect(r.stderr).toContain("tracker project list acme");
  });

  test("an organization slug where a project is expected says so", async () => {
    const r = await run(["span", "view", "0123456789abcdef", "acme"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: 'acme' is an organization, not a project.");
    expect(r.stderr).toContain("Name a project: `tracker span view <span-id> acme/<project>`");
    expect(api.requestsTo("/api/0/organizations/acme/events/")).toEqual([]);
  });
});
