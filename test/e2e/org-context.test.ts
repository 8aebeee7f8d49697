/** An organization named by the context without a project: listings cover it, org view uses it. */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], env: Record<string, string> = {}, configDir?: string) =>
  runCli(args, {
    api,
    token: USER_TOKEN,
    env,
    cwd: tempDir("tracker-empty-cwd-"),
    ...(configDir ? { configDir } : {}),
  });

describe("org-only context", () => {
  test("TRACKER_ORG alone: issue list lists the whole organization (project=-1), with aliases", async () => {
    const r = await run(["issue", "list", "-n", "5", "--json"], { TRACKER_ORG: "acme" });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const searched = api.requestsTo("/api/0/organizations/acme/issues/");
    expect(searched.map((q) => q.query.getAll("project"))).toEqual([["-1"]]);
    const doc = JSON.parse(r.stdout) as { data: { alias?: string }[] };
    expect(doc.data.length).toBe(5);
    expect(doc.data.every((i) => typeof i.alias === "string")).toBe(true);
  });

  test("stored defaults of an organization only do the same; org view takes the organization from them", async () => {
    const configDir = tempDir("tracker-cfg-");
    const set = await run(["defaults", "set", "globex"], {}, configDir);
    expect(set.exitCode).toBe(0);
    api.reset();
    const list = await run(["issue", "list", "-n", "2", "--json"], {}, configDir);
    expect(list.exitCode).toBe(0);
    expect(api.requestsTo("/api/0/organizations/globex/issues/")).toHaveLength(1);
    const view = await run(["org", "view", "--json"], {}, configDir);
    expect(view.exitCode).toBe(0);
    expect(JSON.parse(view.stdout).slug).toBe("globex");
  });

  test("with no organization anywhere, still the spec's ContextError (exit 22)", async () => {
    const r = await run(["issue", "list"]);
    expect(r.exitCode).toBe(22);
    expect(r.stderr).toStartWith("Error: Organization and project are required.");
    const v = await run(["org", "view"]);
    expect(v.exitCode).toBe(22);
    expect(v.stdout).toBe("");
  });
});
