import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("--jq", () => {
  test("strings print raw, one per line, like jq -r; --jq implies --json", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "3", "--jq", ".data[].shortId"]);
    expect(r).toEqual({ exitCode: 0, stdout: "WEB-1\nWEB-2\nWEB-3\n", stderr: "" });
  });

  test("real jq: select, group_by, the alternative operator; objects print as compact JSON", async () => {
    const r = await run([
      "issue",
      "list",
      "acme/web",
      "-n",
      "20",
      "--jq",
      '[.data[] | select(.level == "fatal")] | group_by(.level) | map({level: .[0].level, n: length}) | .[] // "none"',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ level: "fatal", n: expect.any(Number) });
  });

  test("with --fields, the program sees the shaped document", async () => {
    const r = await run(["issue", "view", "acme/WEB-4Y", "--fields", "shortId,project.slug", "--jq", "keys"]);
    expect(JSON.parse(r.stdout)).toEqual(["project", "shortId"]);
  });

  test("a program that does not compile is a usage error with jq's message, before any request", async () => {
    const r = await run(["issue", "list", "acme/web", "--jq", ".data[ | bad"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 2 });
    expect(JSON.parse(r.stderr).error.message).toContain("syntax error");
    expect(api.requests).toEqual([]);
  });

  test("a program that fails on the data is a usage error too; stdout stays empty", async () => {
    const r = await run(["org", "list", "--jq", ".[] | .slug + 1"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error.message).toStartWith("Invalid --jq program: jq: error");
    // jq's own exit status must not leak into the process that ran it (tests, the MCP server).
    expect(process.exitCode ?? 0).toBe(0);
  });
});
