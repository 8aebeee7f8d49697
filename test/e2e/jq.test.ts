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

  test("a runtime error of a valid program is jq's error (exit 21), not an invalid program", async () => {
    const r = await run(["org", "list", "--jq", ".[] | .slug + 1"]);
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    const message = JSON.parse(r.stderr).error.message as string;
    expect(message).toStartWith("jq: error (at <stdin>:0): ");
    expect(message).not.toContain("Invalid --jq program");
    // jq's own exit status must not leak into the process that ran it (tests, the MCP server).
    expect(process.exitCode ?? 0).toBe(0);
  });

  test("output printed before a runtime error is kept, then the error", async () => {
    const r = await run(["org", "list", "--jq", '.[0].slug, (.[1].slug | error("stop"))']);
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("acme\n");
    expect(JSON.parse(r.stderr).error.message).toContain("stop");
  });

  test("env and $ENV are the real environment, less secrets", async () => {
    // The wasm runtime reads the environment once, when it starts: a process of its own.
    const r = await runCli(
      [
        "org",
        "list",
        "--jq",
        '[env.HOME, $ENV.TRACKER_JQ_PROBE, (env | keys | map(select(test("TOKEN"))) | length)]',
      ],
      {
        api,
        token: USER_TOKEN,
        subprocess: true,
        env: { TRACKER_JQ_PROBE: "probe-value", HOME: "/home/probe" },
      },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(["/home/probe", "probe-value", 0]);
  });
});

describe("--jq with debug and stderr (jq prints them to stderr and exits 0)", () => {
  test("debug: the output on stdout, the DEBUG line on stderr, exit 0", async () => {
    const r = await run(["org", "list", "--jq", "[.[].slug] | debug | length"]);
    expect(r).toEqual({ exitCode: 0, stdout: "3\n", stderr: '["DEBUG:",["acme","globex","initech"]]\n' });
    expect(process.exitCode ?? 0).toBe(0);
  });

  test("stderr: the value on stderr, the output on stdout, exit 0", async () => {
    const r = await run(["org", "list", "--jq", '"note: \\(length)" | stderr | "done"']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.stderr).toBe("note: 3\n");
  });

  test("debug before a runtime error: still the error (exit 21)", async () => {
    const r = await run(["org", "list", "--jq", ".[0] | debug | .slug + 1"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("jq: error");
  });
});
