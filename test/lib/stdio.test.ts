import { expect, test } from "bun:test";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { isTerminal } from "../../src/lib/stdio.ts";
import { tempDir } from "../helpers/cli.ts";

const STDIO = join(import.meta.dir, "../../src/lib/stdio.ts");

test("a regular file, /dev/null and a closed descriptor are not terminals", () => {
  const dir = tempDir();
  const fd = openSync(join(dir, "f"), "w");
  const devNull = openSync("/dev/null", "r");
  try {
    expect(isTerminal(fd)).toBe(false);
    expect(isTerminal(devNull)).toBe(false);
  } finally {
    closeSync(fd);
    closeSync(devNull);
  }
  expect(isTerminal(fd)).toBe(false);
});

test("pipes are not terminals", async () => {
  const proc = Bun.spawn(
    [
      process.execPath,
      "-e",
      `import { isTerminal } from ${JSON.stringify(STDIO)}; console.log([0, 1, 2].map(isTerminal).join(","));`,
    ],
    { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
  );
  proc.stdin.end();
  expect((await new Response(proc.stdout).text()).trim()).toBe("false,false,false");
  expect(await proc.exited).toBe(0);
});

// util-linux `script` runs the child on a pseudo-terminal: the one way to get a real TTY in a test.
test.skipIf(process.platform !== "linux" || !existsSync("/usr/bin/script"))(
  "a pseudo-terminal is a terminal; redirected stdout on it is not",
  async () => {
    const probe = `${process.execPath} -e 'import { isTerminal } from ${JSON.stringify(STDIO)}; process.stderr.write([0, 1, 2].map(isTerminal).join(",") + "\\n")'`;
    const run = async (cmd: string) => {
      const proc = Bun.spawn(["/usr/bin/script", "-qec", cmd, "/dev/null"], {
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return out.replace(/\r/g, "").trim();
    };
    expect(await run(probe)).toBe("true,true,true");
    expect(await run(`${probe} > /dev/null`)).toBe("true,false,true");
  },
);
