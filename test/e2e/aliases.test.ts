/** Aliases of an org-wide listing keep meaning their project across pages, sorts and runs. */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

type Row = { alias: string; shortId: string; project: { slug: string } };

async function listing(configDir: string, args: string[]): Promise<Row[]> {
  const r = await runCli(["issue", "list", ...args, "--json"], { api, token: USER_TOKEN, configDir });
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { data: Row[] }).data;
}

/** project slug → alias, checking one project never shows two aliases within a listing. */
function aliasMap(rows: Row[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of rows) {
    const before = m.get(r.project.slug);
    if (before !== undefined) expect(r.alias).toBe(before);
    m.set(r.project.slug, r.alias);
  }
  return m;
}

describe("stable aliases", () => {
  test("across pages, sorts and later runs an alias keeps its project; new projects extend the set", async () => {
    const configDir = tempDir();
    const seen = new Map<string, string>();
    const check = (rows: Row[]) => {
      for (const [slug, alias] of aliasMap(rows)) {
        const before = seen.get(slug);
        if (before !== undefined) expect({ slug, alias }).toEqual({ slug, alias: before });
        // No alias is ever given to a second project.
        for (const [otherSlug, otherAlias] of seen)
          if (otherSlug !== slug) expect(otherAlias).not.toBe(alias);
        seen.set(slug, alias);
      }
    };
    check(await listing(configDir, ["acme/", "-n", "1"]));
    expect(seen.size).toBe(1);
    for (let page = 0; page < 6; page++) check(await listing(configDir, ["acme/", "-n", "3", "-c", "last"]));
    check(await listing(configDir, ["acme/", "-n", "50", "--sort", "freq"]));
    check(await listing(configDir, ["acme/", "-n", "50", "--sort", "new"]));
    expect(seen.size).toBeGreaterThanOrEqual(3);
    // Every alias shown resolves to its project in a later run.
    for (const [slug, alias] of seen) {
      const rows = await listing(configDir, ["acme/", "-n", "50"]);
      const row = rows.find((r) => r.project.slug === slug);
      if (!row) continue;
      const suffix = row.shortId.slice(row.shortId.lastIndexOf("-") + 1);
      const v = await runCli(["issue", "view", `${alias}-${suffix}`, "--json"], {
        api,
        token: USER_TOKEN,
        configDir,
      });
      expect(v.exitCode).toBe(0);
      expect(JSON.parse(v.stdout).shortId).toBe(row.shortId);
    }
  }, 30_000);

  test("an unknown alias is reported as an alias of the current target", async () => {
    const configDir = tempDir();
    await listing(configDir, ["acme/", "-n", "5"]);
    const r = await runCli(["issue", "view", "zq-4Y"], { api, token: USER_TOKEN, configDir });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: Alias 'zq' is not known for acme/.");
    expect(r.stderr).toContain("Run `tracker issue list acme/` to see its aliases");
    expect(r.stdout).toBe("");
  });

  test("an alias of another organization's listing is stale once a new target is listed", async () => {
    const configDir = tempDir();
    const acme = aliasMap(await listing(configDir, ["acme/", "-n", "50"]));
    const globex = aliasMap(await listing(configDir, ["globex/", "-n", "50"]));
    const onlyAcme = [...acme.values()].find((a) => ![...globex.values()].includes(a));
    expect(onlyAcme).toBeDefined();
    const r = await runCli(["issue", "view", `${onlyAcme}-zzzz`], { api, token: USER_TOKEN, configDir });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain(`Error: Alias '${onlyAcme}' is not known for globex/.`);
    // Listing acme again brings its aliases back, unchanged.
    expect(aliasMap(await listing(configDir, ["acme/", "-n", "50"]))).toEqual(acme);
  });

  test("an upper-case unknown short ID stays a short-ID error", async () => {
    const configDir = tempDir();
    await listing(configDir, ["acme/", "-n", "5"]);
    const r = await runCli(["issue", "view", "NOPE-4Y"], { api, token: USER_TOKEN, configDir });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Error: Issue 'NOPE-4Y' was not found");
  });
});
