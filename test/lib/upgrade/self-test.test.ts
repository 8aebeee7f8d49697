import { afterAll, expect, test } from "bun:test";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { selfTest } from "../../../src/lib/upgrade/curl.ts";
import { tempDir } from "../../helpers/cli.ts";

// The upgrade's last line of defence: a downloaded binary is swapped in only when it runs and
// reports exactly the version that was asked for. Each way of failing is checked on its own.
const dir = tempDir("tracker-selftest-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeBinary(name: string, output: string, code: number): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' '${output}'\nexit ${code}\n`);
  chmodSync(path, 0o755);
  return path;
}

test("the right version with exit 0 passes", async () => {
  await expect(selfTest({ env: {} }, fakeBinary("ok", "1.2.3", 0), "1.2.3")).resolves.toBeUndefined();
});

test("another version with exit 0 is rejected, naming what it reported", async () => {
  const p = selfTest({ env: {} }, fakeBinary("wrong", "1.2.2", 0), "1.2.3");
  await expect(p).rejects.toMatchObject({
    reason: "execution_failed",
    message: "The downloaded tracker 1.2.3 failed its self-test: `--version` reported version '1.2.2'.",
  });
});

test("the right version with a failing exit code is rejected", async () => {
  const p = selfTest({ env: {} }, fakeBinary("crash", "1.2.3", 1), "1.2.3");
  await expect(p).rejects.toMatchObject({
    reason: "execution_failed",
    message: "The downloaded tracker 1.2.3 failed its self-test: `--version` exited with code 1.",
  });
});

test("a binary that cannot be started is rejected", async () => {
  const p = selfTest({ env: {} }, join(dir, "missing"), "1.2.3");
  await expect(p).rejects.toMatchObject({ reason: "execution_failed" });
});
