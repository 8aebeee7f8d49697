import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findDsns } from "../../../src/lib/dsn/detect.ts";
import { findProjectRoot } from "../../../src/lib/dsn/root.ts";
import { MAX_FILE_BYTES, scanTree } from "../../../src/lib/dsn/scan.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";

const key = (c: string) => c.repeat(32);
const dsn = (c: string, project = "1") => `https://${key(c)}@o100001.ingest.us.sentry.io/${project}`;

function tree(files: Record<string, string>): string {
  const root = tempDir("tracker-tree-");
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

const found = (root: string) =>
  scanTree(root)
    .locations.map((l) => `${l.file.slice(root.length + 1)} ${l.dsn.slice(8, 9)}`)
    .sort();

describe("source fixtures, one per language", () => {
  const cases: [string, string][] = [
    [
      "src/index.ts",
      `import * as Sentry from "@sentry/node";\nSentry.init({ dsn: "${dsn("a")}", tracesSampleRate: 1 });\n`,
    ],
    ["app.jsx", `Sentry.init({\n  dsn: '${dsn("a")}',\n});\n`],
    ["app/main.py", `import sentry_sdk\nsentry_sdk.init(dsn="${dsn("a")}", traces_sample_rate=1.0)\n`],
    ["main.go", `err := sentry.Init(sentry.ClientOptions{\n\tDsn: "${dsn("a")}",\n})\n`],
    ["src/main/java/App.java", `Sentry.init(options -> {\n  options.setDsn("${dsn("a")}");\n});\n`],
    ["src/main/resources/sentry.properties", `# Sentry\ndsn=${dsn("a")}\n`],
    ["config/initializers/sentry.rb", `Sentry.init do |config|\n  config.dsn = '${dsn("a")}'\nend\n`],
    ["index.php", `<?php\n\\Sentry\\init(['dsn' => '${dsn("a")}']);\n`],
  ];
  test.each(cases)("%s", (path, content) => {
    const root = tree({ [path]: content });
    const locs = scanTree(root).locations;
    expect(locs).toHaveLength(1);
    expect(locs[0]).toMatchObject({ dsn: dsn("a"), file: join(root, path), kind: "source" });
    expect(locs[0]?.line).toBe(2);
  });

  test.each([
    ["a.ts", `// Sentry.init({ dsn: "${dsn("a")}" })\n`],
    ["a.ts", `  * example: "${dsn("a")}"\n`],
    ["a.py", `# sentry_sdk.init(dsn="${dsn("a")}")\n`],
    ["a.rb", `  # config.dsn = '${dsn("a")}'\n`],
    ["a.php", `# '${dsn("a")}'\n`],
  ])("commented-out DSN in %s is ignored", (path, content) => {
    expect(scanTree(tree({ [path]: content })).locations).toEqual([]);
  });

  test("files of other types, minified bundles, huge and binary files are not read", () => {
    const root = tree({
      "notes.md": dsn("a"),
      "data.json": dsn("a"),
      "bundle.min.js": `x="${dsn("a")}"`,
      "big.js": `x="${dsn("a")}"${" ".repeat(MAX_FILE_BYTES)}`,
      "bin.js": `\u0000\u0001x="${dsn("a")}"`,
    });
    expect(scanTree(root).locations).toEqual([]);
  });
});

describe(".env files", () => {
  test("variants: comments, export, quotes, blank values, .env.local over .env", () => {
    const root = tree({
      ".env": `# comment\nSENTRY_DSN=${dsn("a")}\nTRACKER_DSN=\n`,
      ".env.local": `export SENTRY_DSN="${dsn("b")}"\n`,
      "web/.env.production": `NEXT_PUBLIC_SENTRY_DSN='${dsn("c")}' # prod\n`,
      "api/.env.development.local": `TRACKER_DSN=${dsn("d")}\n`,
      "api/.env.example": `SENTRY_DSN=${dsn("e")}\n`,
      "blank/.env": "SENTRY_DSN=\n",
    });
    expect(found(root)).toEqual([".env.local b", "api/.env.development.local d", "web/.env.production c"]);
    const loc = scanTree(root).locations.find((l) => l.file.endsWith(".env.local"));
    expect(loc?.variable).toBe("SENTRY_DSN");
    expect(loc?.kind).toBe("env-file");
  });

  test("a blank value in .env.local shadows .env, as dotenv loading does", () => {
    const root = tree({ ".env": `SENTRY_DSN=${dsn("a")}\n`, ".env.local": "SENTRY_DSN=\n" });
    expect(found(root)).toEqual([]);
  });
});

describe("skipped directories", () => {
  test("dependency, build, VCS, hidden and virtualenv directories are not scanned", () => {
    const files: Record<string, string> = { "src/app.ts": `init({dsn: "${dsn("a")}"})` };
    for (const d of [
      "node_modules/pkg",
      "vendor/x",
      "dist",
      "build",
      ".git",
      ".venv/lib",
      "target",
      "__pycache__",
    ]) {
      files[`${d}/leak.js`] = `init({dsn: "${dsn("z")}"})`;
      files[`${d}/.env`] = `SENTRY_DSN=${dsn("z")}`;
    }
    files["myenv/pyvenv.cfg"] = "home = /usr/bin";
    files["myenv/lib/site.py"] = `x = "${dsn("z")}"`;
    const root = tree(files);
    expect(found(root)).toEqual(["src/app.ts a"]);
  });
});

describe("project root", () => {
  test("nearest VCS marker wins; markers above it are never reached", () => {
    const root = tree({
      "outer/package.json": "{}",
      "outer/repo/.git/HEAD": "ref",
      "outer/repo/a/b/x.txt": "",
    });
    const home = tempDir();
    expect(findProjectRoot(join(root, "outer/repo/a/b"), home)).toBe(join(root, "outer/repo"));
  });

  test("without VCS, the outermost language marker below home is the root", () => {
    const root = tree({
      "mono/package.json": "{}",
      "mono/packages/web/package.json": "{}",
      "mono/packages/web/src/x.ts": "",
    });
    expect(findProjectRoot(join(root, "mono/packages/web/src"), tempDir())).toBe(join(root, "mono"));
    expect(findProjectRoot(join(root, "mono/packages/web/src"), join(root, "mono"))).toBe(
      join(root, "mono/packages/web"),
    );
  });

  test("no marker at all: the working directory itself", () => {
    const root = tree({ "a/b/x.txt": "" });
    expect(findProjectRoot(join(root, "a/b"), tempDir())).toBe(join(root, "a/b"));
  });
});

describe("findDsns", () => {
  test("from a nested subdirectory the root's .env is found; a DSN above the root is not used", () => {
    const root = tree({
      ".env": `SENTRY_DSN=${dsn("z")}`,
      "proj/.git/HEAD": "ref",
      "proj/.env": `SENTRY_DSN=${dsn("a")}`,
      "proj/src/deep/er/x.ts": "",
    });
    const { ctx } = createTestContext({ cwd: join(root, "proj/src/deep/er") });
    const r = findDsns(ctx);
    expect(r.root).toBe(join(root, "proj"));
    expect(r.found.map((f) => [f.dsn.raw, f.source])).toEqual([[dsn("a"), "../../../.env"]]);
  });

  test("outside any project (no VCS or project marker up to /): only the current directory is read", () => {
    const root = tree({
      ".env": `SENTRY_DSN=${dsn("a")}`,
      "elsewhere/.env": `SENTRY_DSN=${dsn("b")}`,
      "elsewhere/deep/app.py": `sentry_sdk.init(dsn="${dsn("c")}")`,
    });
    const dirs: string[] = [];
    const { ctx } = createTestContext({ cwd: root });
    const r = findDsns(ctx, { hooks: { onReadDir: (d) => dirs.push(d) } });
    expect(r.found.map((f) => [f.dsn.raw, f.source])).toEqual([[dsn("a"), ".env"]]);
    expect(dirs).toEqual([root]);
  });

  test("a scan past its time budget stops, says so on stderr, and is not cached", () => {
    const root = tree({
      ".git/HEAD": "ref",
      ".env": `SENTRY_DSN=${dsn("a")}`,
      "apps/web/.env": `SENTRY_DSN=${dsn("b")}`,
    });
    const t = createTestContext({ cwd: root, configDir: tempDir() });
    const r = findDsns(t.ctx, { budgetMs: 0 });
    expect(r.found.map((f) => f.source)).toEqual([".env"]);
    expect(t.stderr()).toContain(`Warning: DSN detection stopped after`);
    expect(t.stderr()).toContain(`in ${root} (`);
    expect(t.stderr()).toContain("Name the project (<org>/<project>) or set TRACKER_DSN.");
    // The next run scans again (with its full budget) and finds both.
    const again = createTestContext({ cwd: root, configDir: t.ctx.configDir });
    const full = findDsns(again.ctx);
    expect(full.fromCache).toBe(false);
    expect(full.found.map((f) => f.source).sort()).toEqual([".env", "apps/web/.env"]);
    expect(again.stderr()).toBe("");
  });

  test("nothing above the root: no DSN", () => {
    const root = tree({ ".env": `SENTRY_DSN=${dsn("z")}`, "proj/.git/HEAD": "ref", "proj/src/x.ts": "" });
    const { ctx } = createTestContext({ cwd: join(root, "proj/src") });
    expect(findDsns(ctx).found).toEqual([]);
  });

  test("monorepo: the root sees every package; a package directory sees its own", () => {
    const root = tree({
      ".git/HEAD": "ref",
      "apps/web/.env": `SENTRY_DSN=${dsn("a")}`,
      "apps/web/src/main.ts": `init({dsn: "${dsn("a")}"})`,
      "services/api/app.py": `sentry_sdk.init(dsn="${dsn("b")}")`,
      "packages/worker/.env.local": `SENTRY_DSN=${dsn("c")}`,
    });
    const atRoot = createTestContext({ cwd: root }).ctx;
    expect(findDsns(atRoot).found.map((f) => f.source)).toEqual([
      "apps/web/.env",
      "packages/worker/.env.local",
      "services/api/app.py:1",
    ]);
    const inWeb = createTestContext({ cwd: join(root, "apps/web/src") }).ctx;
    expect(findDsns(inWeb).found.map((f) => f.source)).toEqual(["main.ts:1"]);
  });

  test("TRACKER_DSN wins over files; an invalid one is a ConfigError", () => {
    const root = tree({ ".env": `SENTRY_DSN=${dsn("a")}` });
    const ok = createTestContext({ cwd: root, env: { TRACKER_DSN: dsn("b") } }).ctx;
    expect(findDsns(ok).found.map((f) => [f.dsn.raw, f.source])).toEqual([[dsn("b"), "TRACKER_DSN"]]);
    const bad = createTestContext({ cwd: root, env: { TRACKER_DSN: "nope" } }).ctx;
    expect(() => findDsns(bad)).toThrow("TRACKER_DSN is not a valid DSN.");
  });

  test("warm run: served from the scan cache without reading any directory or file", () => {
    const root = tree({
      ".git/HEAD": "ref",
      ".env": `SENTRY_DSN=${dsn("a")}`,
      "src/a.ts": "x",
      "src/b.py": "y",
    });
    const configDir = tempDir();
    let reads = 0;
    const hooks = { onReadDir: () => void reads++, onReadFile: () => void reads++ };
    const cold = findDsns(createTestContext({ cwd: root, configDir }).ctx, { hooks });
    expect(cold.fromCache).toBe(false);
    expect(reads).toBeGreaterThan(0);
    reads = 0;
    const warm = findDsns(createTestContext({ cwd: root, configDir }).ctx, { hooks });
    expect(warm.fromCache).toBe(true);
    expect(reads).toBe(0);
    expect(warm.found.map((f) => f.dsn.raw)).toEqual([dsn("a")]);
    const fresh = findDsns(createTestContext({ cwd: root, configDir }).ctx, { hooks, fresh: true });
    expect(fresh.fromCache).toBe(false);
    expect(reads).toBeGreaterThan(0);
  });

  test("a changed DSN file or a new .env in the working directory invalidates the cache", () => {
    const root = tree({ ".git/HEAD": "ref", ".env": `SENTRY_DSN=${dsn("a")}` });
    const configDir = tempDir();
    const run = () => findDsns(createTestContext({ cwd: root, configDir }).ctx);
    run();
    writeFileSync(join(root, ".env"), `SENTRY_DSN=${dsn("b")}\n`);
    const changed = run();
    expect(changed.fromCache).toBe(false);
    expect(changed.found.map((f) => f.dsn.raw)).toEqual([dsn("b")]);
    expect(run().fromCache).toBe(true);
    writeFileSync(join(root, ".env.local"), `SENTRY_DSN=${dsn("c")}\n`);
    // Make the directory's mtime differ even on coarse-grained file systems.
    utimesSync(root, new Date(), new Date(Date.now() + 5000));
    const added = run();
    expect(added.fromCache).toBe(false);
    expect(added.found.map((f) => f.dsn.raw)).toEqual([dsn("c")]);
  });
});

describe("outside any project", () => {
  test("in the home directory only its own files are read, never the tree below", () => {
    const home = tree({
      ".env": `SENTRY_DSN=${dsn("a")}`,
      "code/other/.env": `SENTRY_DSN=${dsn("b")}`,
      "x.ts": "",
    });
    const dirs: string[] = [];
    const { ctx } = createTestContext({ cwd: home, homeDir: home });
    const r = findDsns(ctx, { hooks: { onReadDir: (d) => void dirs.push(d) } });
    expect(dirs).toEqual([home]);
    expect(r.found.map((f) => [f.dsn.raw, f.source])).toEqual([[dsn("a"), ".env"]]);
  });
});
