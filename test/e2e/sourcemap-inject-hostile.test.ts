/**
 * Issue 30: `sourcemap inject` in a hostile tree. Nothing outside the named tree is read or
 * written (directory and file symlinks into another project, a map linked out, a symlink planted
 * at the old predictable temp name), modes are kept (run as `nobody`), strict mode survives a
 * licence banner, a map nested 30,000 levels deep is a note, and `-n` is no alias of --dry-run.
 */
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";

const MAP = JSON.stringify({ version: 3, sources: ["a.ts"], names: [], mappings: "AAAA;AACA" });

type Report = {
  injected: { file: string; changed: string[] }[];
  skipped: { path: string; reason: string }[];
};

/** `base/proj/dist` with one injectable file, and `base/other` (another project) with its own built file. */
function projects(): { base: string; proj: string; dist: string; other: string } {
  const base = tempDir();
  const proj = join(base, "proj");
  const dist = join(proj, "dist");
  const other = join(base, "other");
  mkdirSync(dist, { recursive: true });
  mkdirSync(other);
  writeFileSync(join(dist, "app.js"), "a();\nb();\n");
  writeFileSync(join(dist, "app.js.map"), MAP);
  writeFileSync(join(other, "lib.js"), "l();\n");
  writeFileSync(join(other, "lib.js.map"), MAP);
  return { base, proj, dist, other };
}

const inject = async (cwd: string, ...args: string[]) => {
  const r = await runCli(["sourcemap", "inject", ...args, "--json"], { cwd });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Report;
};

describe("containment", () => {
  test("a directory symlink into another project, a file symlink and a map linked out: notes, the other project untouched", async () => {
    const { proj, dist, other } = projects();
    symlinkSync("../../other", join(dist, "vendor"));
    symlinkSync(join(other, "lib.js"), join(dist, "lib.js"));
    writeFileSync(join(dist, "y.js"), "y();\n");
    symlinkSync("../../other/lib.js.map", join(dist, "y.js.map"));
    const doc = await inject(proj, "dist");
    expect(doc.injected.map((i) => i.file)).toEqual(["dist/app.js"]);
    expect(doc.skipped.map((s) => `${s.path}: ${s.reason.split(" (")[0]}`)).toEqual([
      "lib.js: leads outside the tree",
      "vendor: leads outside the tree",
      `dist/y.js: its map ${join(dist, "y.js.map")} is outside dist`,
    ]);
    expect(readFileSync(join(other, "lib.js"), "utf8")).toBe("l();\n");
    expect(readFileSync(join(other, "lib.js.map"), "utf8")).toBe(MAP);
    expect(readdirSync(other).sort()).toEqual(["lib.js", "lib.js.map"]);
  });

  test("a symlink planted at the old predictable temp name is not written through", async () => {
    const { base, dist } = projects();
    writeFileSync(join(base, "victim"), "precious");
    // In-process runs share this process's pid: these are the names the old code wrote to.
    for (const name of ["app.js", "app.js.map"])
      symlinkSync(join(base, "victim"), join(dist, `${name}.tracker-${process.pid}.tmp`));
    const doc = await inject(dist, ".");
    expect(doc.injected.map((i) => [i.file, i.changed])).toEqual([["app.js", ["js", "map"]]]);
    expect(readFileSync(join(base, "victim"), "utf8")).toBe("precious");
    expect(readFileSync(join(dist, "app.js"), "utf8")).toContain("//# debugId=");
    expect(readdirSync(dist).sort()).toEqual([
      "app.js",
      "app.js.map",
      `app.js.map.tracker-${process.pid}.tmp`,
      `app.js.tracker-${process.pid}.tmp`,
    ]);
  });
});

describe("modes (as an unprivileged user)", () => {
  test("755 stays 755, 444 stays 444, and both are injected", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const files = { "run.js": 0o755, "run.js.map": 0o644, "ro.js": 0o444, "ro.js.map": 0o444 };
    for (const [name, m] of Object.entries(files)) {
      writeFileSync(join(dir, name), name.endsWith(".map") ? MAP : "a();\n");
      chmodSync(join(dir, name), m);
    }
    const config = tempDir();
    if (READ_ONLY_PREFIX.length > 0) {
      for (const p of [dir, config, ...Object.keys(files).map((n) => join(dir, n))])
        chownSync(p, 65534, 65534);
    }
    const r = await runWrapped(READ_ONLY_PREFIX, ["sourcemap", "inject", dir, "--json"], {
      TRACKER_CONFIG_DIR: config,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as Report).injected.length).toBe(2);
    for (const [name, m] of Object.entries(files)) {
      expect([name, statSync(join(dir, name)).mode & 0o7777]).toEqual([name, m]);
      expect(readFileSync(join(dir, name), "utf8")).toContain("debug");
    }
  });
});

describe("file contents", () => {
  test("a licence banner before 'use strict': the snippet goes after the directive, strict mode stays, mappings follow", async () => {
    const dir = tempDir();
    const js =
      "/*! licence: MIT\n * (c) someone */\n'use strict';\n(function () { return this === undefined; })();\n";
    writeFileSync(join(dir, "bundle.cjs"), js);
    writeFileSync(
      join(dir, "bundle.cjs.map"),
      JSON.stringify({ version: 3, sources: ["a"], names: [], mappings: "AAAA;AACA;AACA;AACA" }),
    );
    expect(runInNewContext(js)).toBe(true);
    await inject(dir, ".");
    const out = readFileSync(join(dir, "bundle.cjs"), "utf8");
    expect(
      out
        .split("\n")
        .slice(0, 4)
        .map((l) => l.slice(0, 12)),
    ).toEqual(["/*! licence:", " * (c) someo", "'use strict'", ";(function()"]);
    expect(runInNewContext(out)).toBe(true);
    const map = JSON.parse(readFileSync(join(dir, "bundle.cjs.map"), "utf8"));
    expect(map.mappings).toBe("AAAA;AACA;AACA;;AACA");
  });

  test("a map nested 30,000 levels deep is a note, not a stack overflow", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "app.js"), "a();\n");
    writeFileSync(
      join(dir, "app.js.map"),
      `{"version":3,"mappings":"AAAA","x":${"[".repeat(30_000)}${"]".repeat(30_000)}}`,
    );
    const doc = await inject(dir, ".");
    expect(doc.injected).toEqual([]);
    expect(doc.skipped).toEqual([
      {
        path: "app.js.map",
        reason: "corrupt source map: nested more than 1000 levels deep (not a source map)",
      },
    ]);
    expect(readFileSync(join(dir, "app.js"), "utf8")).toBe("a();\n");
  });
});

describe("flags", () => {
  test("-n is no longer --dry-run (it means --limit elsewhere); --dry-run still writes nothing", async () => {
    const { dist } = projects();
    const n = await runCli(["sourcemap", "inject", "-n", "."], { cwd: dist });
    expect(n.exitCode).toBe(2);
    expect(readFileSync(join(dist, "app.js"), "utf8")).toBe("a();\nb();\n");
    const dry = await runCli(["sourcemap", "inject", "--dry-run", "."], { cwd: dist });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain("would inject");
    expect(readFileSync(join(dist, "app.js"), "utf8")).toBe("a();\nb();\n");
    expect(lstatSync(join(dist, "app.js")).isFile()).toBe(true);
  });
});
