/**
 * Agent output bounds: --max-chars on a 7.8 MB trace document and on 1,000 list rows (linear
 * trimming; it never finished on the trace before), and --jq on about 1 MB in and out (the
 * embedded jq was quadratic: 447 KB took 66 s). Targets from issue 22: under a second each.
 */
import { TRACE_LARGE } from "../../test/fake-api/routes/traces.ts";
import type { BenchCase } from "./types.ts";

const trace = ["trace", "view", TRACE_LARGE, "acme"];

/** Bench cases of --max-chars and --jq. */
export const cases: BenchCase[] = [
  {
    name: "trace view (2000 spans) --json --max-chars 5000",
    args: [...trace, "--json", "--max-chars", "5000"],
    needsApi: true,
    target: { p50Ms: 1000 },
  },
  {
    name: "trace view (2000 spans) --json --max-chars 600000",
    args: [...trace, "--json", "--max-chars", "600000"],
    needsApi: true,
    target: { p50Ms: 1000 },
  },
  {
    name: "issue list acme/ -n 1000 --json --max-chars 20000",
    args: ["issue", "list", "acme/", "-n", "1000", "--json", "--max-chars", "20000"],
    needsApi: true,
    target: { p50Ms: 1000 },
  },
  {
    name: "issue list acme/ -n 1000 --jq . (about 1 MB in and out)",
    args: ["issue", "list", "acme/", "-n", "1000", "--jq", "."],
    needsApi: true,
    target: { p50Ms: 1000 },
  },
  {
    name: "trace view (2000 spans) --jq (7.8 MB in)",
    args: [...trace, "--jq", "[.. | .spanId? // empty] | length"],
    needsApi: true,
    target: { p50Ms: 1500 },
  },
];
