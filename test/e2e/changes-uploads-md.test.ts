/**
 * `--format md` of the upload and send commands: their outcome goes through the change views
 * (lib/format/result.ts, lib/format/dry-run.ts), so the markdown says what the text says and carries
 * the result's values, or a dry run's request; never a JSON block.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

const DEBUG_ID = "3249d99d-0c40-4931-8610-f4e4fb0b6936";

describe("change commands of the upload family in --format md", () => {
  test("code-mappings upload: the counts sentence as the title, then the result's values", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mappings.json"),
      JSON.stringify([
        { stackRoot: "com/a", sourceRoot: "app/a" },
        { stackRoot: "com/b", sourceRoot: "app/b" },
      ]),
    );
    const args = ["code-mappings", "upload", "mappings.json", "acme/mobile-app", "--repo", "acme/android"];
    const r = await runCli([...args, "--default-branch", "main", "--format", "md"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("```");
    expect(r.stdout).toStartWith("## Created: 2, Updated: 0, Errors: 0\n");
    for (const item of [
      "- org: acme",
      "- repository: acme/android",
      "- defaultBranch: main",
      "- created: 2",
      "- mappings.1.stackRoot: com/b",
      "- mappings.1.status: created",
    ])
      expect(r.stdout).toContain(`\n${item}\n`);
  });

  test("dart-symbol-map upload --dry-run: the file said, then the request it would send; nothing sent", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.json"), JSON.stringify(["MaterialApp", "ex"]));
    const r = await runCli(
      ["dart-symbol-map", "upload", "m.json", "acme/mobile-app", "--debug-id", DEBUG_ID, "--dry-run"],
      { api, token: USER_TOKEN, cwd: dir },
    );
    const md = await runCli(
      [
        "dart-symbol-map",
        "upload",
        "m.json",
        "acme/mobile-app",
        "--debug-id",
        DEBUG_ID,
        "--dry-run",
        "--format",
        "md",
      ],
      { api, token: USER_TOKEN, cwd: dir },
    );
    expect(md.exitCode).toBe(0);
    expect(md.stdout).not.toContain("```");
    expect(md.stdout).toStartWith("## Dry run: nothing was sent.\n");
    expect(md.stdout).toContain(`\n${DEBUG_ID}  any dartsymbolmap  20 B (1 chunk)  m.json\n`);
    expect(md.stdout).toContain("\nPOST /api/0/projects/acme/mobile-app/files/difs/assemble/\n");
    expect(md.stdout).toContain(`"debug_id": "${DEBUG_ID}"`);
    // The text run shows the same lines (without the markdown title), and says the dry run on stderr.
    expect(r.stdout).toStartWith(`${DEBUG_ID}  any dartsymbolmap  20 B (1 chunk)  m.json\n1 file(s), 20 B\n`);
    expect(r.stderr).toBe("Dry run: nothing was sent.\n");
    expect(api.requests).toEqual([]);
  });

  test("event send: the text is the event ID alone; the markdown titles it and lists the result", async () => {
    const p = api.state.projects.find((x) => x.id === "300021");
    if (!p) throw new Error("seed changed");
    const env = { SENTRY_DSN: dsnFor(api.state, p) };
    const text = await runCli(["event", "send", "-m", "Backup failed"], { api, env, cwd: tempDir() });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^[0-9a-f]{32}\n$/);
    const md = await runCli(["event", "send", "-m", "Backup failed", "--format", "md"], {
      api,
      env,
      cwd: tempDir(),
    });
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toMatch(/^## ([0-9a-f]{32})\n\n### Result\n- eventId: \1\n/);
  });
});
