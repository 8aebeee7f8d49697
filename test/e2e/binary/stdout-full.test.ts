/**
 * A stdout that cannot be written (a full disk: /dev/full) is an error naming the stream, exit 1,
 * never an uncaught exception with a stack: on the fast paths (`--version`, `--help`) too.
 */
import { expect, test } from "bun:test";
import { closeSync, existsSync, openSync } from "node:fs";
import { cliCommand, tempDir } from "../../helpers/cli.ts";

const FULL = "/dev/full";

test.skipIf(!existsSync(FULL))("--version, --help and a command's help into a full disk", async () => {
  const cwd = tempDir();
  for (const args of [["--version"], ["--help"], ["issue", "list", "--help"]]) {
    const fd = openSync(FULL, "w");
    try {
      const proc = Bun.spawn([...cliCommand(), ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? "", TRACKER_CONFIG_DIR: cwd },
        stdin: "ignore",
        stdout: fd,
        stderr: "pipe",
      });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect({ args, code }).toEqual({ args, code: 1 });
      expect(stderr).toStartWith("Error: Could not write to standard output: ");
      expect(stderr).toContain("ENOSPC");
      // No runtime crash report: no source excerpt, no stack frames, no runtime banner.
      expect(stderr).not.toMatch(/^\s+at |Bun v\d|^\d+ \|/m);
    } finally {
      closeSync(fd);
    }
  }
});
