/**
 * `debug-files bundle-sources` and `debug-files upload --include-sources` (API.md §21.7) on
 * objects built in the test from C sources with gcc -g (DWARF 5, and DWARF 4 for the
 * compilation-directory path through .debug_info): the manifest lists the real source paths, the
 * zip is readable, the debug id is the object's, `debug-files check` agrees; a missing source
 * and a FIFO named as a source are notes, never a hang.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { listZipMembers } from "../../src/lib/debug-files/zip-members.ts";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const GCC = Bun.which("gcc");
const LLVM_PATH = `${process.env.PATH}:/usr/lib/llvm-14/bin`;
const MACHO_TOOLS =
  !!GCC && ["clang", "ld64.lld", "dsymutil", "llvm-lipo"].every((t) => Bun.which(t, { PATH: LLVM_PATH }));
const ASSEMBLE = "/api/0/projects/acme/web/files/difs/assemble/";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

/** A project dir with main.c, src/helper.c, inc/h.h (and `extra` C files), built into `app` (gcc -g, `dwarf` version). */
function build(dwarf = 5, extra: Record<string, string> = {}): string {
  const dir = tempDir();
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "inc"));
  writeFileSync(join(dir, "inc/h.h"), "int helper(int);\n");
  writeFileSync(join(dir, "src/helper.c"), '#include "../inc/h.h"\nint helper(int a) { return a * 2; }\n');
  writeFileSync(join(dir, "main.c"), '#include "inc/h.h"\nint main(void) { return helper(1); }\n');
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  const r = Bun.spawnSync(
    [
      GCC as string,
      `-gdwarf-${dwarf}`,
      "-Wl,--build-id=sha1",
      "-o",
      "app",
      "main.c",
      "src/helper.c",
      ...Object.keys(extra),
    ],
    { cwd: dir },
  );
  if (r.exitCode !== 0) throw new Error(`gcc failed: ${r.stderr}`);
  return dir;
}

/** The entries of a source bundle (after checking its SYSB header), as text. */
async function members(path: string): Promise<Map<string, string>> {
  const file = Bun.file(path);
  expect([...(await file.slice(0, 8).bytes())]).toEqual([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]);
  const window = { size: file.size, read: (o: number, n: number) => file.slice(o, o + n).bytes() };
  const out = new Map<string, string>();
  for (const m of await listZipMembers(window)) {
    const raw = await window.read(m.dataOffset, m.compressedSize);
    out.set(m.name, new TextDecoder().decode(m.method === 8 ? inflateRawSync(raw) : raw));
  }
  return out;
}

async function debugIdOf(dir: string, file: string): Promise<string> {
  const r = await runCli(["debug-files", "check", file, "--json"], { cwd: dir });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout).objects[0].debugId;
}

describe.skipIf(!GCC)("debug-files bundle-sources (gcc -g objects)", () => {
  if (!GCC) console.warn("gcc is not installed: debug-files bundle-sources tests skipped");

  for (const dwarf of [5, 4]) {
    test(`DWARF ${dwarf}: <file>.src.zip next to the file with the real source paths; check reports sources with the object's id`, async () => {
      const dir = build(dwarf);
      const id = await debugIdOf(dir, "app");
      const r = await runCli(["debug-files", "bundle-sources", "app"], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("app.src.zip\n");
      expect(r.stderr).toContain("Upload: tracker debug-files upload app.src.zip");
      const m = await members(join(dir, "app.src.zip"));
      const manifest = JSON.parse(m.get("manifest.json") ?? "");
      const path = (rel: string) => join(dir, rel);
      const zipPath = (rel: string) => `files${join(dir, rel)}`;
      expect(manifest.files).toEqual({
        [zipPath("main.c")]: { type: "source", path: path("main.c") },
        [zipPath("inc/h.h")]: { type: "source", path: path("inc/h.h") },
        [zipPath("src/helper.c")]: { type: "source", path: path("src/helper.c") },
      });
      expect(manifest.debug_id).toBe(id);
      expect(manifest.arch).toBe("x86_64");
      expect(manifest.object_name).toBe("app");
      expect(m.get(zipPath("src/helper.c"))).toContain("return a * 2;");
      // Python's zipfile (an independent reader) opens the bundle too.
      const py = Bun.spawnSync(
        ["python3", "-c", "import sys,zipfile; print(zipfile.ZipFile(sys.argv[1]).testzip())", "app.src.zip"],
        { cwd: dir },
      );
      if (py.exitCode === 0) expect(py.stdout.toString().trim()).toBe("None");
      const check = await runCli(["debug-files", "check", "app.src.zip", "--json"], { cwd: dir });
      expect(check.exitCode).toBe(0);
      const doc = JSON.parse(check.stdout);
      expect(doc.format).toBe("sourcebundle");
      expect(doc.kind).toBe("sources");
      expect(doc.features).toEqual(["sources"]);
      expect(doc.objects[0].debugId).toBe(id);
      const human = await runCli(["debug-files", "check", "app.src.zip"], { cwd: dir });
      expect(human.stdout).toContain("Format:    source bundle\n");
      expect(human.stdout).toContain(`Debug ID:  ${id}\n`);
    });
  }

  test("a missing source and a FIFO named as a source are notes; --output and --json", async () => {
    const dir = build(5, { "pipe.c": "int piped(void) { return 3; }\n" });
    // The DWARF names pipe.c; now it is a FIFO nobody writes to: reading it would block forever.
    rmSync(join(dir, "pipe.c"));
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe.c")]).exitCode).toBe(0);
    rmSync(join(dir, "inc/h.h"));
    const started = Date.now();
    const r = await runCli(["debug-files", "bundle-sources", "app", "--output", "out", "--json"], {
      cwd: dir,
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.bundles).toHaveLength(1);
    expect(doc.bundles[0].output).toBe("out/app.src.zip");
    expect(doc.bundles[0].files.map((f: { path: string }) => f.path).sort()).toEqual(
      [join(dir, "main.c"), join(dir, "src/helper.c")].sort(),
    );
    expect(doc.skipped).toContainEqual({ path: join(dir, "inc/h.h"), reason: "missing" });
    expect(doc.skipped).toContainEqual({
      path: join(dir, "pipe.c"),
      reason: "not a regular file (not read)",
    });
    const manifest = JSON.parse((await members(join(dir, "out/app.src.zip"))).get("manifest.json") ?? "");
    expect(Object.keys(manifest.files)).toHaveLength(2);
  });

  test("an unreadable source (mode 000) is a note and the others are bundled (as nobody when run as root)", async () => {
    const dir = build();
    for (const d of [dir, join(dir, "src"), join(dir, "inc")]) chmodSync(d, 0o755);
    chmodSync(join(dir, "src/helper.c"), 0o000);
    const out = join(dir, "out");
    mkdirSync(out);
    chmodSync(out, 0o777);
    const config = tempDir();
    chmodSync(config, 0o777);
    const r = await runWrapped(
      READ_ONLY_PREFIX,
      ["debug-files", "bundle-sources", "app", "--output", "out", "--json"],
      { TRACKER_CONFIG_DIR: config },
      { cwd: dir },
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.skipped).toEqual([{ path: join(dir, "src/helper.c"), reason: "unreadable (EACCES)" }]);
    expect(doc.bundles[0].files.map((f: { path: string }) => f.path)).toEqual([
      join(dir, "main.c"),
      join(dir, "inc/h.h"),
    ]);
    expect(existsSync(join(out, "app.src.zip"))).toBe(true);
    // An output directory the user cannot write to is a clear error (exit 21), not a crash.
    const locked = join(dir, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    const denied = await runWrapped(
      READ_ONLY_PREFIX,
      ["debug-files", "bundle-sources", "app", "--output", "locked"],
      { TRACKER_CONFIG_DIR: config },
      { cwd: dir },
    );
    expect(denied.stdout).toBe("");
    expect(denied.stderr).toContain(`Error: Cannot write ${join(locked, "app.src.zip")} (EACCES).`);
    expect(denied.exitCode).toBe(21);
    expect(readdirSync(locked)).toEqual([]);
  });

  test("--dry-run writes nothing; a file that is not debug information is an error", async () => {
    const dir = build();
    const r = await runCli(["debug-files", "bundle-sources", "app", "--dry-run"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("Dry run: no bundle was written.");
    expect(existsSync(join(dir, "app.src.zip"))).toBe(false);
    const bad = await runCli(["debug-files", "bundle-sources", "main.c"], { cwd: dir });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("main.c is not a debug information file");
  });

  test("upload --include-sources: the object and its bundle (<name>.src.zip, same debug id) in one assemble", async () => {
    const dir = build();
    const id = await debugIdOf(dir, "app");
    const r = await runCli(["debug-files", "upload", "app", "acme/web", "--include-sources", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(
      doc.files.map((f: { name: string; format: string; debugId: string }) => [f.name, f.format, f.debugId]),
    ).toEqual([
      ["app", "elf", id],
      ["app.src.zip", "sourcebundle", id],
    ]);
    const body = JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "");
    const sent = Object.entries(body) as [string, { name: string; debug_id: string; chunks: string[] }][];
    expect(sent.map(([, f]) => [f.name, f.debug_id]).sort()).toEqual([
      ["app", id],
      ["app.src.zip", id],
    ]);
    // The bundle's bytes arrived whole: reassemble them from the fake's chunks and read the manifest.
    const bundle = sent.find(([, f]) => f.name === "app.src.zip")?.[1];
    const bytes = Buffer.concat(
      (bundle?.chunks ?? []).map((c) => chunkStore(api.state).chunks.get(c) as Uint8Array),
    );
    const out = join(tempDir(), "sent.src.zip");
    writeFileSync(out, bytes);
    const manifest = JSON.parse((await members(out)).get("manifest.json") ?? "");
    expect(manifest.debug_id).toBe(id);
    expect(Object.values(manifest.files).map((f) => (f as { path: string }).path)).toContain(
      join(dir, "main.c"),
    );
    // The bundle is deterministic: a second run sends no chunk, and the same checksums.
    const again = await runCli(["debug-files", "upload", "app", "acme/web", "--include-sources", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    const second = JSON.parse(again.stdout);
    expect(second.chunks.sent).toBe(0);
    expect(second.files.map((f: { checksum: string }) => f.checksum)).toEqual(
      doc.files.map((f: { checksum: string }) => f.checksum),
    );
    // Without the flag only the object goes.
    const plain = await runCli(["debug-files", "upload", "app", "acme/web", "--dry-run", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(JSON.parse(plain.stdout).files.map((f: { name: string }) => f.name)).toEqual(["app"]);
  });
});

describe.skipIf(!MACHO_TOOLS)(
  "debug-files bundle-sources (Mach-O dSYM built with clang/ld64.lld/dsymutil)",
  () => {
    if (!MACHO_TOOLS)
      console.warn("clang, ld64.lld, dsymutil or llvm-lipo missing: Mach-O bundle-sources test skipped");

    test("a universal dSYM: one bundle per slice (Fat.src.zip, Fat.1.src.zip) next to the .dSYM, each with its slice's id", async () => {
      const dir = build();
      const sh = (cmd: string[]) => {
        const r = Bun.spawnSync(cmd, { cwd: dir, env: { ...process.env, PATH: LLVM_PATH } });
        if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
      };
      for (const [arch, target] of [
        ["x86_64", "x86_64-apple-macos11"],
        ["arm64", "arm64-apple-macos11"],
      ] as const) {
        sh(["clang", `--target=${target}`, "-g", "-c", "-o", `main-${arch}.o`, "main.c"]);
        sh(["clang", `--target=${target}`, "-g", "-c", "-o", `helper-${arch}.o`, "src/helper.c"]);
        sh([
          "ld64.lld",
          "-arch",
          arch,
          "-platform_version",
          "macos",
          "11.0",
          "11.0",
          "-e",
          "_main",
          "-o",
          `App-${arch}`,
          `main-${arch}.o`,
          `helper-${arch}.o`,
        ]);
        sh(["dsymutil", "-o", `${arch}.dSYM`, `App-${arch}`]);
      }
      mkdirSync(join(dir, "out/Fat.dSYM/Contents/Resources/DWARF"), { recursive: true });
      sh([
        "llvm-lipo",
        "-create",
        "x86_64.dSYM/Contents/Resources/DWARF/App-x86_64",
        "arm64.dSYM/Contents/Resources/DWARF/App-arm64",
        "-output",
        "out/Fat.dSYM/Contents/Resources/DWARF/Fat",
      ]);
      const check = await runCli(
        ["debug-files", "check", "out/Fat.dSYM/Contents/Resources/DWARF/Fat", "--json"],
        { cwd: dir },
      );
      const ids = JSON.parse(check.stdout).objects.map((o: { debugId: string }) => o.debugId);
      expect(ids).toHaveLength(2);
      const r = await runCli(["debug-files", "bundle-sources", "out/Fat.dSYM"], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("out/Fat.src.zip\nout/Fat.1.src.zip\n");
      for (const [i, name] of ["Fat.src.zip", "Fat.1.src.zip"].entries()) {
        const manifest = JSON.parse((await members(join(dir, "out", name))).get("manifest.json") ?? "");
        expect(manifest.debug_id).toBe(ids[i]);
        expect(manifest.arch).toBe(i === 0 ? "x86_64" : "arm64");
        expect(
          Object.values(manifest.files)
            .map((f) => (f as { path: string }).path)
            .sort(),
        ).toEqual([join(dir, "main.c"), join(dir, "src/helper.c")].sort());
      }
    });
  },
);
