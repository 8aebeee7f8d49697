/** Long lists on a terminal go through the pager: TRACKER_PAGER, then PAGER, else less -FRX. */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const TERMINAL = { stdout: true, stderr: true, stdin: true };

/** A pager script that saves what it reads, and whether it saw tracker's token. */
const SAVE_INPUT = `cat > "$0.out"; printf %s "\${TRACKER_AUTH_TOKEN:-no-token}" > "$0.env"`;

function fakePager(body = SAVE_INPUT): string {
  const path = join(tempDir("tracker-pager-"), "pager");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const list = (n: number, env: Record<string, string | undefined>, terminal = TERMINAL) =>
  runCli(["issue", "list", "acme/web", "-n", String(n)], {
    api,
    token: USER_TOKEN,
    terminal,
    env: { LINES: "10", NO_COLOR: "1", ...env },
  });

describe("pager", () => {
  test("a list taller than the terminal goes through TRACKER_PAGER; tips follow on stderr", async () => {
    const pager = fakePager();
    const r = await list(12, { TRACKER_PAGER: pager });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    const shown = readFileSync(`${pager}.out`, "utf8").split("\n");
    expect(shown[0]).toBe("Issues in acme/web (is:unresolved, sorted by last seen, last 90d):");
    expect(shown[1]).toMatch(/^Showing \d+ of [\d,]+\.$/);
    expect(shown[3]).toMatch(/^ID\s+LEVEL\s+TITLE/);
    expect(shown.filter((l) => /^WEB-[0-9A-Z]+\s/.test(l))).toHaveLength(12);
    expect(readFileSync(`${pager}.env`, "utf8")).toBe("no-token");
    expect(r.stderr).toContain("Tip: tracker issue view WEB-1");
  });

  test("a list that fits is printed directly", async () => {
    const pager = fakePager();
    const r = await list(3, { TRACKER_PAGER: pager });
    expect(r.stdout.split("\n").filter((l) => /^WEB-[0-9A-Z]+\s/.test(l))).toHaveLength(3);
    expect(existsSync(`${pager}.out`)).toBe(false);
  });

  test("PAGER applies when TRACKER_PAGER is unset; TRACKER_PAGER wins; an empty one turns paging off", async () => {
    const viaPager = fakePager();
    expect((await list(12, { TRACKER_PAGER: undefined, PAGER: viaPager })).stdout).toBe("");
    expect(existsSync(`${viaPager}.out`)).toBe(true);

    const ours = fakePager();
    const theirs = fakePager();
    await list(12, { TRACKER_PAGER: ours, PAGER: theirs });
    expect([existsSync(`${ours}.out`), existsSync(`${theirs}.out`)]).toEqual([true, false]);

    const off = fakePager();
    const r = await list(12, { TRACKER_PAGER: "", PAGER: off });
    expect(r.stdout.split("\n").filter((l) => /^WEB-[0-9A-Z]+\s/.test(l))).toHaveLength(12);
    expect(existsSync(`${off}.out`)).toBe(false);
  });

  test("piped output never pages", async () => {
    const pager = fakePager();
    const r = await list(12, { TRACKER_PAGER: pager }, { stdout: false, stderr: true, stdin: true });
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(12);
    expect(existsSync(`${pager}.out`)).toBe(false);
  });

  test("a pager that is not installed: printed directly, no error", async () => {
    const r = await list(12, { TRACKER_PAGER: "no-such-pager-anywhere -R" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n").filter((l) => /^WEB-[0-9A-Z]+\s/.test(l))).toHaveLength(12);
  });

  test("a pager quit before reading anything (q at once) is a normal end", async () => {
    const quits = fakePager("exit 0");
    // Several runs: whether the pager is gone before or after the text is written varies.
    for (let i = 0; i < 5; i++) {
      const r = await list(1000, { TRACKER_PAGER: quits });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toContain("EPIPE");
    }
  });

  test("arguments in TRACKER_PAGER are passed on, without a shell", async () => {
    const pager = fakePager('printf "%s," "$@" > "$0.args"; cat > /dev/null');
    await list(12, { TRACKER_PAGER: `${pager} -R  --quit-if-one-screen ;echo` });
    expect(readFileSync(`${pager}.args`, "utf8")).toBe("-R,--quit-if-one-screen,;echo,");
  });
});
