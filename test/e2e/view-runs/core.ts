/** Parity runs of `status` and `monitor list`. */
import { FAKE_NOW_MS } from "../../fake-api/clock.ts";
import type { ViewRun } from "./types.ts";

export const RUNS: Record<string, ViewRun> = {
  status: { args: ["status", "acme"], now: FAKE_NOW_MS },
  "monitor list": { args: ["monitor", "list", "acme"] },
};
