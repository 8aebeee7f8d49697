/** Trace commands against the fake API: a 100-row JSON listing and the span tree of a 2,000-span trace. */
import { TRACE_LARGE } from "../../test/fake-api/routes/traces.ts";
import type { BenchCase } from "./types.ts";

/** Bench cases of the trace commands. */
export const cases: BenchCase[] = [
  {
    name: "trace list -n 100 --json",
    args: ["trace", "list", "acme/web", "-n", "100", "--json"],
    needsApi: true,
  },
  { name: "trace view (2000 spans)", args: ["trace", "view", TRACE_LARGE, "acme"], needsApi: true },
  {
    name: "trace view (2000 spans) --json",
    args: ["trace", "view", TRACE_LARGE, "acme", "--json"],
    needsApi: true,
  },
];
