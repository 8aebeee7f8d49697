/**
 * Commands whose cost against a distant hosted service is round trips (issue 13's table): run with
 * `bun run bench --latency 150` to see the sequential round trips of each.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { publicKeyFor } from "../../test/fake-api/seed.ts";
import type { BenchCase } from "./types.ts";

/** Five projects of two organizations in two regions: [org id, region, project id]. */
const MONOREPO: [string, string, string][] = [
  ["100001", "us", "300001"],
  ["100001", "us", "300002"],
  ["100001", "us", "300003"],
  ["100002", "de", "300011"],
  ["100002", "de", "300012"],
];

/** A repository with one hosted-style DSN per package (as the fake API seeds them), removed with the config dir. */
async function monorepo({ configDir }: { configDir: string }): Promise<{ cwd: string }> {
  const root = join(configDir, "monorepo");
  mkdirSync(join(root, ".git"), { recursive: true });
  for (const [org, region, project] of MONOREPO) {
    const dir = join(root, "packages", project);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, ".env"),
      `SENTRY_DSN=https://${publicKeyFor(project)}@o${org}.ingest.${region}.sentry.io/${project}\n`,
    );
  }
  return { cwd: root };
}

/** Bench cases of the round-trip table. */
export const cases: BenchCase[] = [
  { name: "org list --json", args: ["org", "list", "--json"], needsApi: true },
  {
    name: "issue view WEB-4Y --json (no org, warm)",
    args: ["issue", "view", "WEB-4Y", "--json"],
    needsApi: true,
  },
  {
    name: "issue view acme/WEB-1 --json (warm)",
    args: ["issue", "view", "acme/WEB-1", "--json"],
    needsApi: true,
  },
  { name: "issue view 4001 --json (warm)", args: ["issue", "view", "4001", "--json"], needsApi: true },
  { name: "issue list acme/web --json", args: ["issue", "list", "acme/web", "--json"], needsApi: true },
  {
    // The warm-up runs the analysis to its end; the timed runs find it finished.
    name: "issue explain acme/WEB-5 --json (finished, warm)",
    args: ["issue", "explain", "acme/WEB-5", "--json"],
    needsApi: true,
  },
  {
    name: "issue list, 5-DSN monorepo (--fresh)",
    args: ["issue", "list", "-n", "10", "--fresh", "--json"],
    needsApi: true,
    setup: monorepo,
  },
];
