/** Guard: text handed to the pager is sanitised like every other terminal write. */
import { expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addIssue, ISSUES_NOW_MS } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

test("a hostile title reaches the pager with its escape shown visibly, never raw", async () => {
  addIssue(api.state, "acme", "web", {
    title: "Boom \x1b]0;x\x07 owned",
    level: "error",
    status: "unresolved",
    lastSeen: ISSUES_NOW_MS - 1000,
  });
  const pager = join(tempDir("tracker-pager-"), "pager");
  writeFileSync(pager, `#!/bin/sh\ncat > "$0.out"\n`);
  chmodSync(pager, 0o755);
  const r = await runCli(["issue", "list", "acme/web", "-n", "12"], {
    api,
    token: USER_TOKEN,
    terminal: { stdout: true, stderr: true, stdin: true },
    env: { TRACKER_PAGER: pager, LINES: "5", NO_COLOR: "1", COLUMNS: "200" },
  });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe("");
  const shown = readFileSync(`${pager}.out`, "utf8");
  expect(shown).toContain("Boom \\e]0;x\\x07");
  expect(shown).not.toContain("\x1b");
  expect(shown).not.toContain("\x07");
});
