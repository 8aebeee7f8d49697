/**
 * Completion offers release versions and monitor slugs, not project targets, in the first slot of
 * `release view|finalize|deploy …` and `monitor run` (issue 32 §5): from what `release list` and
 * `monitor list` stored, with no request at TAB; the next slot is the target again.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const complete = (words: string[], configDir: string) =>
  runCli(["__complete", "--", ...words], { api, token: USER_TOKEN, configDir });
const lines = (s: string) => s.split("\n").filter(Boolean);

describe("completion of release versions and monitor slugs", () => {
  test("after release list and monitor list: versions and slugs in their slot, targets after it, no request", async () => {
    const configDir = tempDir();
    const listed = await runCli(["release", "list", "acme/", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(listed.exitCode).toBe(0);
    const versions = (JSON.parse(listed.stdout) as { data: { version: string }[] }).data.map(
      (r) => r.version,
    );
    expect(versions.length).toBeGreaterThan(0);
    const monitors = await runCli(["monitor", "list", "acme", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(monitors.exitCode).toBe(0);
    const slugs = (JSON.parse(monitors.stdout) as { data: { slug: string }[] }).data.map((m) => m.slug);
    expect(slugs.length).toBeGreaterThan(0);
    api.reset();

    for (const verb of ["view", "finalize", "deploy", "delete", "set-commits", "deploys"]) {
      const r = await complete(["release", verb, ""], configDir);
      expect(r.exitCode).toBe(0);
      expect(lines(r.stdout).sort()).toEqual([...new Set(versions)].sort());
    }
    const prefix = (versions[0] as string).slice(0, 3);
    const typed = lines((await complete(["release", "view", prefix], configDir)).stdout);
    expect(typed).toEqual(versions.filter((v) => v.startsWith(prefix)));
    // A flag's value is no positional: still the version slot.
    const afterFlag = lines(
      (await complete(["release", "deploy", "--env", "production", ""], configDir)).stdout,
    );
    expect(afterFlag.sort()).toEqual([...new Set(versions)].sort());
    // The second slot is the organization/target again.
    const second = lines((await complete(["release", "view", versions[0] as string, ""], configDir)).stdout);
    expect(second).toContain("acme/");
    expect(second).not.toContain(versions[0]);

    const run = lines((await complete(["monitor", "run", ""], configDir)).stdout);
    expect(run.sort()).toEqual([...new Set(slugs)].sort());
    expect(run.some((c) => c.includes("/"))).toBe(false);
    expect(api.requests).toEqual([]);
  });

  test("nothing listed yet: an empty slot, not project targets", async () => {
    const configDir = tempDir();
    await runCli(["project", "list", "acme"], { api, token: USER_TOKEN, configDir });
    api.reset();
    expect((await complete(["release", "view", ""], configDir)).stdout).toBe("");
    expect((await complete(["monitor", "run", ""], configDir)).stdout).toBe("");
    expect(lines((await complete(["release", "list", ""], configDir)).stdout)).toContain("acme/web");
    expect(api.requests).toEqual([]);
  });
});
