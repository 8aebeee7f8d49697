import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const run = (args: string[], configDir: string, env?: Record<string, string>) =>
  runCli(args, { api, token: USER_TOKEN, configDir, env });

describe("defaults", () => {
  test("set <org>/<project> validates against the API, then show and clear", async () => {
    const cfg = tempDir();
    const set = await run(["defaults", "set", "acme/web"], cfg);
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe("Default set to acme/web.\n");
    expect(api.requestsTo("/api/0/projects/acme/web/")).toHaveLength(1);

    const show = await run(["defaults"], cfg);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toBe(
      `Organization:  acme (from defaults)\nProject:       web (from defaults)\nURL:           ${api.url} (from TRACKER_URL)\n`,
    );
    expect(show.stderr).toBe("");

    const json = await run(["defaults", "show", "--json"], cfg);
    expect(JSON.parse(json.stdout)).toMatchObject({ org: "acme", project: "web" });

    const clear = await run(["defaults", "clear", "--json"], cfg);
    expect(JSON.parse(clear.stdout)).toEqual({ cleared: true });
    const again = await run(["defaults", "clear"], cfg);
    expect(again.stdout).toBe("No defaults were set.\n");

    const empty = await run(["defaults", "--json"], cfg);
    expect(JSON.parse(empty.stdout)).toMatchObject({ org: null, project: null });
    const emptyHuman = await run(["defaults"], cfg);
    expect(emptyHuman.stdout).toBe(`No defaults set.\nURL:           ${api.url} (from TRACKER_URL)\n`);
    expect(emptyHuman.stderr).toBe(
      "Set them with: tracker defaults set <org>/<project> (--here: for this project only)\n",
    );
  });

  test("set <org> stores the org only (and drops an older default project)", async () => {
    const cfg = tempDir();
    await run(["defaults", "set", "acme/web"], cfg);
    const r = await run(["defaults", "set", "globex", "--json"], cfg);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ org: "globex", project: null });
    expect(api.requestsTo("/api/0/organizations/globex/")).not.toHaveLength(0);
    expect((await run(["defaults"], cfg)).stdout).toStartWith(
      "Organization:  globex (from defaults)\nProject:       -\n",
    );
    // `<org>/` means the same.
    const slash = await run(["defaults", "set", "initech/"], cfg);
    expect(slash.stdout).toBe("Default organization set to initech.\n");
  });

  test("an unknown project is not stored; case typo gets did-you-mean", async () => {
    const cfg = tempDir();
    const r = await run(["defaults", "set", "acme/WEB"], cfg);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Project 'acme/WEB' was not found.\n\nDid you mean acme/web? Slugs are case-sensitive.\n",
    );
    expect(JSON.parse((await run(["defaults", "--json"], cfg)).stdout)).toMatchObject({
      org: null,
      project: null,
    });
  });

  test("malformed value: ValidationError, no request", async () => {
    const r = await run(["defaults", "set", "a/b/c"], tempDir());
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith("Error: Invalid target 'a/b/c'");
    expect(api.requests).toEqual([]);
  });

  test("show notes environment overrides on stderr", async () => {
    const cfg = tempDir();
    await run(["defaults", "set", "acme/web"], cfg);
    const r = await run(["defaults"], cfg, { TRACKER_ORG: "globex" });
    expect(r.stdout).toStartWith("Organization:  globex (from TRACKER_ORG)\nProject:       -\n");
    expect(r.stderr).toBe(
      "TRACKER_ORG=globex is set and takes precedence over the org from defaults (acme).\n",
    );
  });

  test("no token: set fails with not_authenticated and stores nothing", async () => {
    const cfg = tempDir();
    const r = await runCli(["defaults", "set", "acme"], { api, configDir: cfg });
    expect(r.exitCode).toBe(10);
    expect(JSON.parse((await run(["defaults", "--json"], cfg)).stdout)).toMatchObject({
      org: null,
      project: null,
    });
  });
});
