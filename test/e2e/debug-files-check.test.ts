/**
 * `tracker debug-files check` end to end: the real entry point on real object files, their
 * sentry-cli answers (test/fixtures/difs/sentry-cli-check.json), and clear errors for files that
 * are not debug information, unusable, truncated, or not files at all. No request is made.
 */
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "../../src/lib/exit-codes.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";

const DIR = join(import.meta.dir, "../fixtures/difs");
const RECORDED = JSON.parse(readFileSync(join(DIR, "sentry-cli-check.json"), "utf8"));

test("prints format, kind, features and each architecture's ids", async () => {
  const r = await runCli(["debug-files", "check", "elf-stripped"], { cwd: DIR });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe("");
  const id = RECORDED["elf-stripped"].variants[0];
  expect(r.stdout).toBe(
    [
      "File:      elf-stripped",
      "Format:    ELF library",
      "Features:  symtab, unwind",
      "Usable:    yes",
      "",
      "Arch:      x86_64",
      `Debug ID:  ${id.debug_id}`,
      `Code ID:   ${id.code_id}`,
      "Debug file: elf-debug.debug",
      "",
    ].join("\n"),
  );
});

test("--json: one document with every slice of a universal binary (alias dif)", async () => {
  const r = await runCli(["dif", "check", join(DIR, "macho-fat"), "--json"]);
  expect(r.exitCode).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc).toMatchObject({
    format: "macho",
    kind: "exe",
    features: ["symtab", "unwind"],
    usable: true,
    problem: null,
  });
  expect(
    doc.objects.map((o: { debugId: string; arch: string }) => ({ debug_id: o.debugId, arch: o.arch })),
  ).toEqual(
    RECORDED["macho-fat"].variants.map((v: { debug_id: string; arch: string }) => ({
      debug_id: v.debug_id,
      arch: v.arch,
    })),
  );
  expect(doc.objects[1].offset).toBeGreaterThan(0);
});

test("a PDB and a dSYM are debug companions", async () => {
  const pdb = JSON.parse((await runCli(["debug-files", "check", join(DIR, "pe32.pdb"), "--json"])).stdout);
  expect(pdb).toMatchObject({ format: "pdb", kind: "dbg", features: ["symtab", "debug", "unwind"] });
  expect(pdb.objects[0].debugId).toBe(RECORDED["pe32.pdb"].variants[0].debug_id);
  const dsym = await runCli(["debug-files", "check", join(DIR, "macho-x86_64.dsym")]);
  expect(dsym.stdout).toContain("Format:    Mach-O debug companion\nFeatures:  symtab, debug, unwind\n");
});

test("an unusable file is printed, then an error with the validation exit code", async () => {
  const r = await runCli(["debug-files", "check", join(DIR, "pe.exe"), "--json"]);
  expect(r.exitCode).toBe(EXIT.validation);
  expect(JSON.parse(r.stdout)).toMatchObject({
    usable: false,
    problem: "missing debug or unwind information",
  });
  expect(r.stderr).toContain("is not usable: missing debug or unwind information");
});

test("a file that is not debug information is a clear error", async () => {
  const r = await runCli(["debug-files", "check", join(DIR, "make-portable-pdb.py")]);
  expect(r.exitCode).toBe(EXIT.validation);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/is not a debug information file \(tracker reads: .*ELF, .*Mach-O, .*PDB/);
});

test("a truncated or corrupt object file is a clear error, never a crash", async () => {
  const dir = tempDir("tracker-difs-");
  const elf = readFileSync(join(DIR, "elf-debug"));
  writeFileSync(join(dir, "cut"), elf.subarray(0, 100));
  const cut = await runCli(["debug-files", "check", "cut"], { cwd: dir });
  expect(cut.exitCode).toBe(EXIT.validation);
  expect(cut.stderr).toMatch(/cut cannot be read as ELF: .*truncated/);
  expect(cut.stderr).not.toContain("    at ");
  const fat = Buffer.from(readFileSync(join(DIR, "macho-fat")));
  fat.writeUInt32BE(0x7fff_ffff, 16); // first slice's size now runs past the end
  writeFileSync(join(dir, "bad-fat"), fat);
  const bad = await runCli(["debug-files", "check", "bad-fat"], { cwd: dir });
  expect(bad.exitCode).toBe(EXIT.validation);
  expect(bad.stderr).toContain("slice 0 ends past the end of the file");
});

test("a directory, a missing file and a FIFO are refused without reading", async () => {
  const dir = tempDir("tracker-difs-");
  copyFileSync(join(DIR, "elf32"), join(dir, "elf32"));
  const d = await runCli(["debug-files", "check", "."], { cwd: dir });
  expect(d.exitCode).toBe(EXIT.validation);
  expect(d.stderr).toContain(". is not a regular file: name one debug information file");
  mkdirSync(join(dir, "App.dSYM"));
  const dsym = await runCli(["debug-files", "check", "App.dSYM"], { cwd: dir });
  expect(dsym.stderr).toContain(
    "App.dSYM is not a regular file: name the file inside it, <bundle>/Contents/Resources/DWARF/<name>.",
  );
  const m = await runCli(["debug-files", "check", "nope"], { cwd: dir });
  expect(m.exitCode).toBe(EXIT.validation);
  expect(m.stderr).toContain("Cannot read nope: no such file.");
  const fifo = join(dir, "pipe");
  const made = Bun.spawnSync(["mkfifo", fifo]);
  if (made.exitCode !== 0) return console.log("skip: mkfifo unavailable");
  const f = await runCli(["debug-files", "check", "pipe"], { cwd: dir, timeoutMs: 5000 });
  expect(f.exitCode).toBe(EXIT.validation);
  expect(f.stderr).toContain("pipe is not a regular file");
});

test("a file the user may not read is a clear error (run as an unprivileged user)", async () => {
  const dir = tempDir("tracker-difs-");
  chmodSync(dir, 0o755);
  copyFileSync(join(DIR, "elf32"), join(dir, "secret.debug"));
  chmodSync(join(dir, "secret.debug"), 0o000);
  const config = tempDir("tracker-difs-cfg-");
  chmodSync(config, 0o777);
  const r = await runWrapped(
    READ_ONLY_PREFIX,
    ["debug-files", "check", "secret.debug"],
    { TRACKER_CONFIG_DIR: config },
    { cwd: dir },
  );
  expect(r.stderr).toContain("Cannot read secret.debug: permission denied.");
  expect(r.exitCode).toBe(EXIT.validation);
});

test("text from the file (the debug link) reaches the terminal sanitised", async () => {
  const dir = tempDir("tracker-difs-");
  const elf = Buffer.from(readFileSync(join(DIR, "elf-stripped")));
  const at = elf.indexOf("elf-debug.debug");
  elf.write("\x1b[2Jevil\x07.debug", at, "latin1");
  writeFileSync(join(dir, "evil"), elf);
  const r = await runCli(["debug-files", "check", "evil"], { cwd: dir });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toContain("Debug file: ");
  expect(r.stdout).not.toContain("\x1b");
  expect(r.stdout).not.toContain("\x07");
});

test("help names the command and the JSON shape", async () => {
  const r = await runCli(["debug-files", "check", "--help"]);
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toContain("tracker debug-files check <file>");
  expect(r.stdout).toContain('"debugId", "codeId"');
});
