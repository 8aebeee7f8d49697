/**
 * `--format md` of the issue changes: what the text says (the change view's sentence, or the dry
 * run's requests) and the result's values, not a JSON block.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const md = (args: string[]) => runCli([...args, "--format", "md"], { api, token: USER_TOKEN });

describe("change commands in markdown", () => {
  test("issue resolve: the line as the title, the changed issue's values below", async () => {
    const r = await md(["issue", "resolve", "acme/WEB-4Y", "--in", "web@1.5.0"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toStartWith("## WEB-4Y resolved in web@1.5.0\n\n### Result\n");
    expect(r.stdout).toContain("\n- changed.0.shortId: WEB-4Y\n");
    expect(r.stdout).toContain("\n- changed.0.status: resolved\n");
    expect(r.stdout).toContain("\n- changed.0.statusDetails.inRelease: web@1.5.0\n");
    expect(r.stdout).toContain("\n- dryRun: false\n");
    expect(r.stdout).not.toContain("```");
  });

  test("issue note: the sentence, and the created note's id and text", async () => {
    const r = await md(["issue", "note", "acme/WEB-4Y", "Fixed by #1234"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toStartWith("## Added a note to WEB-4Y (acme).\n\n### Result\n");
    expect(r.stdout).toMatch(/\n- id: \d+\n/);
    expect(r.stdout).toContain("\n- type: note\n");
    expect(r.stdout).toContain("\n- data.text: Fixed by #1234\n");
    expect(r.stdout).not.toContain("```");
  });

  test("issue merge --dry-run: that nothing was sent, then the request line and its body", async () => {
    const r = await md(["issue", "merge", "acme/WEB-51", "--into", "acme/WEB-4Y", "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      '## Dry run: nothing was sent.\nPUT /api/0/organizations/acme/issues/?id=4158&id=4161\n{\n  "merge": true\n}\n',
    );
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });
});
