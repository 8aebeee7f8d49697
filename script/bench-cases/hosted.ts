/**
 * Commands whose cost against a distant hosted service is round trips (issue 13's table): run with
 * `bun run bench --latency 150` to see the sequential round trips of each.
 */
import type { BenchCase } from "./types.ts";

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
];
