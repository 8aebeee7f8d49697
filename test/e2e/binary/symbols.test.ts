import { expect, test } from "bun:test";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { breakpadSym } from "../../fixtures/difs/sym.ts";
import { runCli, tempDir } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

// The symbol commands as a real child process (the compiled binary in CI's smoke step): the lazily
// loaded reader registry, temp files and streamed hashing work outside the test runner too.
const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

test("debug-files upload, then the same files again: one assemble request", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "app.sym"), breakpadSym({ id: "DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A1" }));
  const configDir = tempDir("tracker-cfg-");
  const run = () =>
    runCli(["debug-files", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
      configDir,
      subprocess: true,
    });
  const first = await run();
  expect(first.exitCode).toBe(0);
  expect(JSON.parse(first.stdout).files[0]).toMatchObject({
    debugId: "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
    state: "created",
  });
  api.requests.length = 0;
  const again = await run();
  expect(JSON.parse(again.stdout)).toMatchObject({ unchanged: true });
  expect(api.requests.map((q) => q.path)).toEqual(["/api/0/projects/acme/web/files/difs/assemble/"]);
});

test("proguard uuid", async () => {
  const dir = tempDir();
  copyFileSync(join(import.meta.dir, "../../fixtures/proguard/mapping.txt"), join(dir, "mapping.txt"));
  const r = await runCli(["proguard", "uuid", "mapping.txt"], { cwd: dir, subprocess: true });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe("76d59355-8459-584e-8759-1d3468a7ae4e\n");
});
