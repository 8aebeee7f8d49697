/**
 * `issue list` against the fake API: 100 issues (one request) and 1000 issues (ten requests of
 * 100). The fake seeds acme/web with enough unresolved issues in the default 90-day window.
 */
import type { BenchCase } from "./types.ts";

/** Benchmarked issue commands. */
export const cases: BenchCase[] = [
  {
    name: "issue list -n 100 --json",
    args: ["issue", "list", "acme/web", "-n", "100", "--json"],
    needsApi: true,
    target: { clientMs: 15, rssMiB: 80 },
  },
  {
    name: "issue list -n 1000 --json",
    args: ["issue", "list", "acme/web", "-n", "1000", "--json"],
    needsApi: true,
    target: { clientMs: 15, rssMiB: 80 },
  },
  {
    name: "issue list -n 100 --jq '.data[].shortId'",
    args: ["issue", "list", "acme/web", "-n", "100", "--jq", ".data[].shortId"],
    needsApi: true,
  },
];
