/**
 * `sourcemap upload` answers that are true (issue 32 §4): nothing that can never match is uploaded
 * as a success, a bundle the service lost is said, and a map found beside its file is named in the
 * bundle's manifest.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ASSEMBLE = "/api/0/organizations/acme/artifactbundle/assemble/";
const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";

const api = useFakeApi({ afterReset: (a) => a.state.store.delete("chunks") });

function upload(dir: string, extra: string[] = []) {
  return runCli(["sourcemap", "upload", dir, "acme/web", "--json", ...extra], {
    api,
    token: USER_TOKEN,
    configDir: tempDir(),
  });
}

test("files without debug IDs and no --release: refused with the fix, nothing assembled", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "a.js"), "a();\n//# sourceMappingURL=a.js.map\n");
  writeFileSync(join(dir, "a.js.map"), JSON.stringify({ version: 3, sources: ["a.ts"], mappings: "AAAA" }));
  const r = await upload(dir);
  expect(r.exitCode).toBe(21);
  expect(r.stderr).toContain("None of the 2 files has a debug ID, and no --release was given");
  expect(r.stderr).toContain("tracker sourcemap inject");
  expect(api.requestsTo(ASSEMBLE, "POST")).toEqual([]);
  // With a release the same files are fine (matched by URL).
  const withRelease = await upload(dir, ["--release", "web@1.0.0"]);
  expect(withRelease.exitCode).toBe(0);
});

test("--wait that ends in not_found after every chunk was sent: the service did not keep the bundle (exit 30)", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "app.js"), `a();\n//# debugId=${ID}\n`);
  chunkStore(api.state).forgetOnPoll = true;
  let clock = Date.parse("2026-11-28T00:00:00Z");
  const r = await runInProcess(["sourcemap", "upload", dir, "acme/web", "--json", "--wait"], {
    env: { TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN, TRACKER_CONFIG_DIR: tempDir() },
    cwd: dir,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
  });
  expect(r.exitCode).toBe(30);
  expect(r.stderr).toContain("The service did not keep the bundle");
  expect(r.stdout).toBe("");
});

test("a map beside its file without sourceMappingURL (vendor.mjs.map) is named in the manifest's Sourcemap header", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "vendor.mjs"), `v();\n//# debugId=${ID}\n`);
  writeFileSync(
    join(dir, "vendor.mjs.map"),
    JSON.stringify({ version: 3, sources: ["v.ts"], mappings: "AAAA" }),
  );
  const r = await upload(dir, ["--ext", "mjs,map"]);
  expect(r.exitCode).toBe(0);
  const bundle = [...chunkStore(api.state).bundles.values()][0];
  const files = Object.values(bundle?.manifest?.files ?? {});
  const js = files.find((f) => f.url.endsWith("/vendor.mjs"));
  expect(js?.headers.sourcemap).toBe("vendor.mjs.map");
});
