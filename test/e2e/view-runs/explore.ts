/** Parity runs of the explore views: logs, spans, traces, queries and attributes. */
import { FAKE_NOW_MS } from "../../fake-api/clock.ts";
import { MULTILINE_LOG } from "../../fake-api/routes/logs.ts";
import { TRACE_NESTED } from "../../fake-api/routes/traces.ts";
import type { ViewRun } from "./types.ts";

/** A db.query span of acme/web in the seed (its id is stable: the seed is deterministic). */
const DB_SPAN = "890907ae31c6119b";

export const RUNS: Record<string, ViewRun> = {
  "log list": { args: ["log", "list", "acme/web", "-n", "10"], now: FAKE_NOW_MS },
  "log view": { args: ["log", "view", MULTILINE_LOG, "acme/web"], now: FAKE_NOW_MS },
  "span list": { args: ["span", "list", "acme/web", "-n", "10"], now: FAKE_NOW_MS },
  "span view": { args: ["span", "view", DB_SPAN, "acme/web"], now: FAKE_NOW_MS },
  "trace list": { args: ["trace", "list", "acme/web"], now: FAKE_NOW_MS },
  "trace logs": { args: ["trace", "logs", TRACE_NESTED, "acme"], now: FAKE_NOW_MS },
  // The span tree and, under it, the trace's logs.
  // The span tree and, under it, the trace's logs.
  "trace view": { args: ["trace", "view", TRACE_NESTED, "acme", "--logs"], now: FAKE_NOW_MS },
  query: {
    args: [
      "query",
      "acme/web",
      "--dataset",
      "spans",
      "-F",
      "transaction",
      "-F",
      "p95(span.duration)",
      "-F",
      "count()",
    ],
    now: FAKE_NOW_MS,
  },
  "query --interval": {
    args: [
      "query",
      "acme/",
      "--dataset",
      "spans",
      "-F",
      "count()",
      "-F",
      "avg(span.duration)",
      "--interval",
      "1h",
    ],
    now: FAKE_NOW_MS,
  },
  "attribute list": { args: ["attribute", "list", "acme/web", "--dataset", "logs"], now: FAKE_NOW_MS },
};
