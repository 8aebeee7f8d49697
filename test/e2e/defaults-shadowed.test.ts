/**
 * `defaults show` lists the global default a `--here` default shadows, marked as shadowed, in text
 * and --json (issue 32 §2); outside the project the global one applies and nothing is shadowed.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("defaults show with a --here default over a global one", () => {
  test("the global default is listed, marked shadowed; outside the project it is the one in use", async () => {
    const home = tempDir("tracker-home-");
    const app = join(home, "app");
    const elsewhere = join(home, "other");
    for (const d of [join(app, ".git"), elsewhere]) mkdirSync(d, { recursive: true });
    const configDir = tempDir();
    const run = (args: string[], cwd: string) =>
      runCli(args, { api, token: USER_TOKEN, configDir, cwd, env: { HOME: home } });
    expect((await run(["defaults", "set", "acme/web"], home)).exitCode).toBe(0);
    expect((await run(["defaults", "set", "--here", "acme/api"], app)).exitCode).toBe(0);

    const text = await run(["defaults"], app);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(
      "Organization:  acme (from defaults --here)\nProject:       api (from defaults --here)\n",
    );
    expect(text.stdout).toContain("Global:        acme/web (shadowed here by defaults --here)\n");
    const json = JSON.parse((await run(["defaults", "show", "--json"], app)).stdout);
    expect(json).toMatchObject({
      org: "acme",
      project: "api",
      global: { org: "acme", project: "web", shadowed: true },
    });

    const outside = await run(["defaults"], elsewhere);
    expect(outside.stdout).toContain("Project:       web (from defaults)\n");
    expect(outside.stdout).not.toContain("Global:");
    expect(JSON.parse((await run(["defaults", "--json"], elsewhere)).stdout).global).toEqual({
      org: "acme",
      project: "web",
      shadowed: false,
    });
  });
});
