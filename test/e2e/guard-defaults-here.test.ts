/**
 * Issue 32 §0 guards of `defaults --here`: a default stored for `/x/app` does not apply in the
 * sibling `/x/app-old` (a path prefix is no parent directory), and in nested trees the deepest
 * stored one wins.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("defaults --here guards (real CLI)", () => {
  test("/x/app's default is not /x/app-old's; the deepest stored tree wins", async () => {
    const home = tempDir("tracker-home-");
    const app = join(home, "x", "app");
    const old = join(home, "x", "app-old");
    const svc = join(app, "packages", "svc");
    for (const d of [
      join(app, ".git"),
      join(old, ".git"),
      join(svc, ".git"),
      join(svc, "src"),
      join(app, "docs"),
    ])
      mkdirSync(d, { recursive: true });
    const configDir = tempDir();
    const run = (args: string[], cwd: string) =>
      runCli(args, { api, token: USER_TOKEN, configDir, cwd, env: { HOME: home } });
    // The outer tree first, so a lookup that ignored depth would find it first.
    expect((await run(["defaults", "set", "--here", "acme/api"], app)).exitCode).toBe(0);
    expect((await run(["defaults", "set", "--here", "globex/billing"], svc)).exitCode).toBe(0);
    expect((await run(["defaults", "set", "acme/web"], home)).exitCode).toBe(0);

    const target = async (cwd: string) => {
      const r = await run(["project", "view", "--json"], cwd);
      expect(r.exitCode).toBe(0);
      const p = JSON.parse(r.stdout) as { slug: string; organization: { slug: string } };
      return [`${p.organization.slug}/${p.slug}`, r.stderr];
    };
    expect(await target(old)).toEqual(["acme/web", "Using acme/web (from defaults)\n"]);
    expect(await target(join(app, "docs"))).toEqual(["acme/api", "Using acme/api (from defaults --here)\n"]);
    expect(await target(join(svc, "src"))).toEqual([
      "globex/billing",
      "Using globex/billing (from defaults --here)\n",
    ]);
    expect(await target(svc)).toEqual(["globex/billing", "Using globex/billing (from defaults --here)\n"]);
  });
});
