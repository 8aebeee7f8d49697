import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { listZipMembers } from "../../src/lib/debug-files/zip-members.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";

const ID = "6a1ac21b-37d9-4c8e-9f4e-4bd1c1d5b2a1";

function project(): string {
  const dir = tempDir();
  const files: Record<string, string> = {
    "app/src/main/java/com/example/app/MainActivity.java":
      "package com.example.app;\nclass MainActivity {}\n",
    "app/src/main/kotlin/com/example/app/Util.kt": "package com.example.app\nfun util() = 1\n",
    "lib/src/test/scala/Spec.scala": "object Spec\n",
    "app/build/generated/Gen.java": "class Gen {}\n",
    "app/src/main/java/build/Tool.java": "class Tool {}\n",
    ".idea/Workspace.java": "x\n",
    "README.md": "# app\n",
    "app/src/release/java/com/example/app/MainActivity.java": "duplicate url\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function members(path: string): Promise<Map<string, string>> {
  const file = Bun.file(path);
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  expect([...head]).toEqual([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]);
  const window = { size: file.size, read: (o: number, n: number) => file.slice(o, o + n).bytes() };
  const out = new Map<string, string>();
  for (const m of await listZipMembers(window)) {
    const raw = await window.read(m.dataOffset, m.compressedSize);
    out.set(m.name, new TextDecoder().decode(m.method === 8 ? inflateRawSync(raw) : raw));
  }
  return out;
}

describe("debug-files bundle-jvm (local)", () => {
  test("writes <output>/<debug-id>.zip: SYSB header, absolute zip offsets, ~/<package>.jvm URLs, manifest", async () => {
    const dir = project();
    const outside = tempDir();
    writeFileSync(join(outside, "Secret.java"), "secret\n");
    symlinkSync(join(outside, "Secret.java"), join(dir, "app/src/main/java/Secret.java"));
    const r = await runCli(
      ["debug-files", "bundle-jvm", ".", "--debug-id", ID, "--output", "out", "--json"],
      { cwd: dir },
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.path).toBe(`out/${ID}.zip`);
    expect(doc.files).toEqual([
      { path: "app/src/main/java/build/Tool.java", url: "~/build/Tool.jvm" },
      {
        path: "app/src/main/java/com/example/app/MainActivity.java",
        url: "~/com/example/app/MainActivity.jvm",
      },
      { path: "app/src/main/kotlin/com/example/app/Util.kt", url: "~/com/example/app/Util.jvm" },
      { path: "lib/src/test/scala/Spec.scala", url: "~/Spec.jvm" },
    ]);
    expect(doc.skipped).toEqual([
      { path: "app/src/main/java/Secret.java", reason: "symlink out of the tree (not followed)" },
      {
        path: "app/src/release/java/com/example/app/MainActivity.java",
        reason:
          "same URL ~/com/example/app/MainActivity.jvm as app/src/main/java/com/example/app/MainActivity.java (the first is kept)",
      },
    ]);
    const m = await members(join(dir, "out", `${ID}.zip`));
    expect(JSON.parse(m.get("manifest.json") ?? "")).toEqual({
      debug_id: ID,
      files: {
        "files/_/_/build/Tool.jvm": { type: "source", url: "~/build/Tool.jvm" },
        "files/_/_/com/example/app/MainActivity.jvm": {
          type: "source",
          url: "~/com/example/app/MainActivity.jvm",
        },
        "files/_/_/com/example/app/Util.jvm": { type: "source", url: "~/com/example/app/Util.jvm" },
        "files/_/_/Spec.jvm": { type: "source", url: "~/Spec.jvm" },
      },
    });
    expect(m.get("files/_/_/com/example/app/Util.jvm")).toBe("package com.example.app\nfun util() = 1\n");
    expect(readdirSync(join(dir, "out"))).toEqual([`${ID}.zip`]);
  });

  test("--dry-run writes nothing; a bad --debug-id and a directory without sources are errors", async () => {
    const dir = project();
    const dry = await runCli(["debug-files", "bundle-jvm", ".", "--debug-id", ID, "--dry-run"], { cwd: dir });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain(
      "~/com/example/app/MainActivity.jvm  app/src/main/java/com/example/app/MainActivity.java",
    );
    expect(existsSync(join(dir, `${ID}.zip`))).toBe(false);
    const bad = await runCli(["debug-files", "bundle-jvm", ".", "--debug-id", "nope"], { cwd: dir });
    expect(bad.exitCode).toBe(21);
    const empty = await runCli(["debug-files", "bundle-jvm", ".", "--debug-id", ID], { cwd: tempDir() });
    expect(empty.exitCode).toBe(21);
    expect(empty.stderr).toContain("No Java, Kotlin, Scala, Groovy or Clojure sources");
  });
});

describe("debug-files bundle-jvm in a hostile tree (as an unprivileged user)", () => {
  test("a FIFO among the sources is a note, never a hang; a /proc link is out of the tree; the bundle is written", async () => {
    const dir = project();
    expect(Bun.spawnSync(["mkfifo", join(dir, "app/src/main/java/Pipe.java")]).exitCode).toBe(0);
    symlinkSync("/proc/self/environ", join(dir, "app/src/main/java/Env.java"));
    const config = tempDir();
    // The unprivileged user owns the project and its config dir, as a developer owns a checkout.
    if (READ_ONLY_PREFIX.length > 0)
      for (const p of [dir, config]) Bun.spawnSync(["chown", "-R", "65534:65534", p]);
    const r = await runWrapped(
      READ_ONLY_PREFIX,
      ["debug-files", "bundle-jvm", ".", "--debug-id", ID, "--output", "out", "--json"],
      { TRACKER_CONFIG_DIR: config, HOME: config },
      { cwd: dir },
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.skipped).toEqual(
      expect.arrayContaining([
        { path: "app/src/main/java/Pipe.java", reason: "not a regular file (skipped)" },
        { path: "app/src/main/java/Env.java", reason: "symlink out of the tree (not followed)" },
      ]),
    );
    const sources = await members(join(dir, "out", `${ID}.zip`));
    expect([...sources.values()].some((t) => t.includes("TRACKER") || t.includes("PATH="))).toBe(false);
  });
});
