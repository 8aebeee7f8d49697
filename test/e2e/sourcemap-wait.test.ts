/**
 * `sourcemap upload --wait` against a service that names a huge `maxWait` and never finishes
 * assembling: the wait stops at 10 minutes (injected clock, no wall-clock sleeping) and stderr
 * says it is waiting, how it goes, and that it stopped.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  MAX_ASSEMBLE_WAIT_MS,
  POLL_INTERVAL_MS,
  assembleWaitMs,
} from "../../src/lib/sourcemap/assemble-wait.ts";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ASSEMBLE = "/api/0/organizations/acme/artifactbundle/assemble/";
const OPTIONS = "/api/0/organizations/acme/chunk-upload/";
const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";
const api = useFakeApi({ afterReset: (a) => a.state.store.delete("chunks") });

test("assembleWaitMs: the service's maxWait, the default without one, never more than 10 minutes", () => {
  expect(assembleWaitMs(undefined)).toBe(300_000);
  expect(assembleWaitMs(0)).toBe(300_000);
  expect(assembleWaitMs(120)).toBe(120_000);
  expect(assembleWaitMs(1e12)).toBe(MAX_ASSEMBLE_WAIT_MS);
  expect(assembleWaitMs(Number.POSITIVE_INFINITY)).toBe(300_000);
});

test("a huge maxWait and a bundle that stays assembling: polling stops at 10 minutes, with progress on stderr", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "app.js"), `a();\n//# sourceMappingURL=app.js.map\n//# debugId=${ID}\n`);
  writeFileSync(
    join(dir, "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: [], debug_id: ID }),
  );
  chunkStore(api.state).pollsBeforeDone = 1_000_000;
  const res = await fetch(`${api.url}${OPTIONS}`, { headers: { authorization: `Bearer ${USER_TOKEN}` } });
  const options = { ...((await res.json()) as Record<string, unknown>), maxWait: 1_000_000_000 };
  api.reset();
  chunkStore(api.state).pollsBeforeDone = 1_000_000;
  api.inject({ path: OPTIONS, method: "GET", status: 200, body: options });
  let now = Date.parse("2026-01-15T12:00:00Z");
  const slept: number[] = [];
  const r = await runInProcess(["sourcemap", "upload", ".", "acme/web", "--wait"], {
    env: {
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_CONFIG_DIR: tempDir(),
      TRACKER_PAGER: "",
    },
    cwd: dir,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  });
  const polls = MAX_ASSEMBLE_WAIT_MS / POLL_INTERVAL_MS;
  expect(slept).toEqual(Array(polls).fill(POLL_INTERVAL_MS));
  expect(r.exitCode).toBe(0);
  const lines = r.stderr.split("\n");
  expect(lines).toContain("Waiting for the service to process the bundle (at most 10 min)…");
  expect(lines).toContain("Still assembling after 10 s…");
  expect(lines).toContain(
    "Warning: Stopped waiting after 10 min: the service is still processing the bundle (assembling).",
  );
  expect(lines.filter((l) => l.startsWith("Still assembling")).length).toBe(polls / 10 - 1);
  expect(api.requestsTo(ASSEMBLE).length).toBeLessThanOrEqual(polls + 3);
});
