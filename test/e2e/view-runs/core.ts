/** Parity runs of `status`, `monitor list`, and the two views every change command shares. */
import { FAKE_NOW_MS } from "../../fake-api/clock.ts";
import type { ViewRun } from "./types.ts";

export const RUNS: Record<string, ViewRun> = {
  status: { args: ["status", "acme"], now: FAKE_NOW_MS },
  "monitor list": { args: ["monitor", "list", "acme"] },
  // A change's sentences, and its result's values in the markdown (a change run twice: the text, then md).
  "change result": { args: ["defaults", "set", "acme/web", "-e", "production"] },
  "dry run": { args: ["release", "create", "web@9.0.0-dry", "acme/web", "--dry-run"] },
};
