/**
 * Issue 30: `sourcemap upload` in a hostile tree, run as an unprivileged user: a link to
 * /proc/self/environ (where the run's token is), a link to `/`, a link into another project, a
 * FIFO and an unreadable file are each one note; only the tree's own regular files are bundled.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
  },
});

/** `base/dist` with app.js and its map, and `base/other` (another project) with a file. */
function tree(): { base: string; dist: string } {
  const base = tempDir();
  const dist = join(base, "dist");
  mkdirSync(dist);
  mkdirSync(join(base, "other"));
  writeFileSync(join(dist, "app.js"), `a();\n//# sourceMappingURL=app.js.map\n//# debugId=${ID}\n`);
  writeFileSync(
    join(dist, "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"] }),
  );
  writeFileSync(join(base, "other", "keys.js"), "secret of another project");
  return { base, dist };
}

const notes = (doc: { skipped: { path: string; reason: string }[] }) =>
  doc.skipped.map((s) => `${s.path}: ${s.reason.split(" (")[0]}`);

describe("sourcemap upload in a hostile tree", () => {
  test("as nobody: /proc/self/environ, a link to /, a link into another project, a FIFO and an unreadable file are notes", async () => {
    const { base, dist } = tree();
    symlinkSync("/proc/self/environ", join(dist, "env.js"));
    symlinkSync("/", join(dist, "root"));
    symlinkSync("../other/keys.js", join(dist, "other.js"));
    expect(Bun.spawnSync(["mkfifo", join(dist, "pipe.js")]).exitCode).toBe(0);
    writeFileSync(join(dist, "secret.js"), "s();\n");
    chmodSync(join(dist, "secret.js"), 0o000);
    const config = tempDir();
    for (const p of [base, dist, config]) chmodSync(p, 0o755);
    if (READ_ONLY_PREFIX.length > 0)
      for (const p of [
        dist,
        config,
        ...["app.js", "app.js.map", "pipe.js", "secret.js"].map((n) => join(dist, n)),
      ])
        chownSync(p, 65534, 65534);
    const r = await runWrapped(READ_ONLY_PREFIX, ["sourcemap", "upload", dist, "acme/web", "--json"], {
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_CONFIG_DIR: config,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(notes(doc)).toEqual([
      "env.js: leads outside the tree",
      "other.js: leads outside the tree",
      "pipe.js: a FIFO, not a regular file",
      "root: leads outside the tree",
      "secret.js: unreadable",
    ]);
    expect(doc.files.map((f: { url: string }) => f.url)).toEqual(["~/app.js", "~/app.js.map"]);
    const [bundle] = [...chunkStore(api.state).bundles.values()];
    expect(Object.keys(bundle?.manifest?.files ?? {}).sort()).toEqual([
      "files/_/_/app.js",
      "files/_/_/app.js.map",
    ]);
  });

  test("a file argument that is a link to /proc/self/environ is a note, not bundled", async () => {
    const { dist } = tree();
    symlinkSync("/proc/self/environ", join(dist, "env.js"));
    const r = await runCli(["sourcemap", "upload", "env.js", "app.js", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dist,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(notes(doc)).toEqual(["env.js: leads outside the tree"]);
    expect(doc.files.map((f: { url: string }) => f.url)).toEqual(["~/app.js"]);
  });
});
