import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { breakpadSym } from "../fixtures/difs/sym.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

const ID_A = "de6a1d56c3e74a7eba2eb1cee1c5dd1a1";
const ID_B = "0123456789abcdef0123456789abcdef0";

function tree(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "symbols/x"), { recursive: true });
  writeFileSync(join(dir, "symbols/x/app.sym"), breakpadSym({ id: ID_A }));
  writeFileSync(join(dir, "symbols/lib.sym"), breakpadSym({ id: ID_B }));
  writeFileSync(join(dir, "notes.txt"), "no");
  return dir;
}

describe("debug-files find (local, no network)", () => {
  test("finds files by debug ID in any spelling; --json {matches, missing}", async () => {
    const dir = tree();
    const r = await runCli(
      ["debug-files", "find", "DE6A1D56-C3E7-4A7E-BA2E-B1CEE1C5DD1A-1", "symbols", "--json"],
      { cwd: dir },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      matches: [
        { id: "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1", path: "symbols/x/app.sym", type: "breakpad" },
      ],
      missing: [],
    });
    const human = await runCli(["debug-files", "find", ID_B], { cwd: dir });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toBe("01234567-89ab-cdef-0123-456789abcdef  breakpad  symbols/lib.sym\n");
  });

  test("a missing ID: matches on stdout, the missing list on stderr, exit non-zero", async () => {
    const dir = tree();
    const r = await runCli(["debug-files", "find", ID_A, "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "--json"], {
      cwd: dir,
    });
    expect(r.exitCode).toBe(23);
    expect(JSON.parse(r.stdout).missing).toEqual(["aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"]);
    expect(r.stderr).toContain("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");
    const none = await runCli(["debug-files", "find", "symbols"], { cwd: dir });
    expect(none.exitCode).toBe(21);
    expect(none.stderr).toContain("Name at least one debug ID");
  });
});
