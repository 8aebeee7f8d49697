/**
 * Issue 32 §0 guards of `monitor run` as a real process: a job that exits 1 makes tracker exit 1
 * (not 0, not one of tracker's own codes), and the closing check-in's duration is in seconds.
 */
import { describe, expect, test } from "bun:test";
import { receivedItems, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => resetMonitorStore(a.state) });
const dsn = () => {
  const p = api.state.projects.find((x) => x.id === "300021");
  if (!p) throw new Error("seed changed");
  return dsnFor(api.state, p);
};
const run = (command: string) =>
  runCli(["monitor", "run", "nightly", "--", "sh", "-c", command], {
    subprocess: true,
    env: { TRACKER_DSN: dsn() },
  });

describe("monitor run guards (real process)", () => {
  test("a job that exits 1: tracker exits 1, quietly, with an error check-in", async () => {
    const r = await run("exit 1");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("");
    expect(receivedItems(api.state, "check_in").map((c) => c.status)).toEqual(["in_progress", "error"]);
  });

  test("the closing check-in's duration is in seconds (a 0.3 s job: about 0.3, not 300)", async () => {
    const r = await run("sleep 0.3");
    expect(r.exitCode).toBe(0);
    const close = receivedItems(api.state, "check_in")[1];
    expect(close?.status).toBe("ok");
    const duration = close?.duration as number;
    expect(typeof duration).toBe("number");
    expect(duration).toBeGreaterThanOrEqual(0.25);
    expect(duration).toBeLessThan(10);
  });
});
