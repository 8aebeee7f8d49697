/** A repository with thousands of DSNs: deduplicated by key and capped, with one note on stderr. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_DETECTED_DSNS } from "../../src/lib/dsn/detect.ts";
import { MAX_UNMATCHED_NAMED } from "../../src/lib/resolve/detect.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

function repo(): string {
  const root = tempDir("tracker-dsn-cap-");
  mkdirSync(join(root, ".git"));
  return root;
}

function envFile(root: string, dir: string, dsn: string): void {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, ".env"), `SENTRY_DSN=${dsn}\n`);
}

const seeded = (org: string, slug: string) => {
  const p = api.state.projects.find((x) => x.org === org && x.slug === slug);
  if (!p) throw new Error(`no seeded project ${org}/${slug}`);
  return dsnFor(api.state, p);
};
/** DSN lookups: a project by its DSN's numeric org and project ids. */
const lookups = () => api.requests.filter((r) => /^\/api\/0\/projects\/\d+\/\d+\/$/.test(r.path));

describe("DSN fan-out", () => {
  test("2,000 different DSNs: at most the cap is looked up, and the skip is said once", async () => {
    const root = repo();
    envFile(root, "web", seeded("acme", "web"));
    envFile(root, "api", seeded("acme", "api"));
    for (let i = 0; i < 1998; i++) {
      envFile(
        root,
        join("legacy", `svc${String(i).padStart(4, "0")}`),
        `https://${"ab".repeat(16)}@o100001.ingest.us.sentry.io/${900000 + i}`,
      );
    }
    const r = await runCli(["issue", "list", "-n", "4", "--json"], { api, token: USER_TOKEN, cwd: root });
    expect(r.exitCode).toBe(0);
    const slugs = new Set(
      JSON.parse(r.stdout).data.map((i: { project: { slug: string } }) => i.project.slug),
    );
    expect([...slugs].sort()).toEqual(["api", "web"]);
    expect(lookups().length).toBeLessThanOrEqual(MAX_DETECTED_DSNS);
    expect(r.stderr.match(/Found 2000 different DSNs/g)).toHaveLength(1);
    expect(r.stderr).toContain(`using the first ${MAX_DETECTED_DSNS}`);
    // The 48 legacy DSNs within the cap match no project: a few are named, the rest counted once.
    expect(r.stderr.match(/could not be matched to any accessible project\.$/gm)).toHaveLength(
      MAX_UNMATCHED_NAMED,
    );
    expect(r.stderr).toContain(
      `Warning: ${MAX_DETECTED_DSNS - 2 - MAX_UNMATCHED_NAMED} more detected DSN(s) could not be matched`,
    );
    expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(MAX_UNMATCHED_NAMED + 4);
  }, 30_000);

  test("one DSN in 500 files (and once more with a secret key, once on another ingest host) is one lookup", async () => {
    const root = repo();
    const dsn = seeded("acme", "web");
    for (let i = 0; i < 500; i++) envFile(root, join("apps", `a${i}`), dsn);
    envFile(root, "legacy", dsn.replace("@", `:${"5ec7".repeat(8)}@`));
    const otherHost = dsn.replace(/\.ingest\.[a-z]+\.sentry\.io\//, ".ingest.sentry.io/");
    expect(otherHost).not.toBe(dsn);
    envFile(root, "old-host", otherHost);
    // Debug logging names every DSN it resolves: the secret must not be among them.
    const r = await runCli(["issue", "list", "-n", "2", "--json", "--log-level", "debug"], {
      api,
      token: USER_TOKEN,
      cwd: root,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("Target: DSN https://");
    expect(lookups()).toHaveLength(1);
    expect(r.stderr).not.toContain("different DSNs");
    expect(r.stderr).not.toContain("5ec7");
    expect(r.stdout).not.toContain("5ec7");
  }, 30_000);

  test("a fully qualified target never scans: no DSN note, no lookup", async () => {
    const root = repo();
    for (let i = 0; i < 200; i++)
      envFile(root, `s${i}`, `https://${"cd".repeat(16)}@o100001.ingest.us.sentry.io/${800000 + i}`);
    const r = await runCli(["issue", "list", "acme/web", "-n", "1", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: root,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(lookups()).toEqual([]);
  });
});
