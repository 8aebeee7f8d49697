/** Global flags anywhere on the command line, and --help/--version that touch no state and no network. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { VERSION } from "../../src/lib/version.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("--help and --version", () => {
  test("create no config dir, open no database and make no request", async () => {
    const configDir = join(tempDir(), "never-created");
    const runs = await Promise.all(
      [
        ["--help"],
        ["--version"],
        ["org", "--help"],
        ["org", "list", "--help"],
        ["--json", "org", "view", "-h"],
        [],
      ].map((args) =>
        runCli(args, { api, configDir, token: USER_TOKEN, env: { TRACKER_LOG_LEVEL: "trace" } }),
      ),
    );
    for (const r of runs)
      expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(existsSync(configDir)).toBe(false);
    expect(api.requests).toEqual([]);
    expect(runs[1]?.stdout).toBe(`${VERSION}\n`);
  });

  test("--help lists every command of the spec", async () => {
    const r = await runCli(["--help"]);
    const commands = r.stdout.slice(r.stdout.indexOf("COMMANDS"));
    for (const name of ["auth", "issue", "trace", "org", "project", "defaults", "cli", "upgrade"]) {
      expect(commands).toMatch(new RegExp(`^ {2}${name} +\\S`, "m"));
    }
  });

  test("a bad TRACKER_LOG_LEVEL does not break --help", async () => {
    const r = await runCli(["org", "list", "--help"], { env: { TRACKER_LOG_LEVEL: "nope" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toStartWith("USAGE\n");
  });
});

describe("global flags before, between or after the command words", () => {
  test("--json works in every position and repeated", async () => {
    const runs = await Promise.all(
      [
        ["--json", "org", "list"],
        ["org", "--json", "list"],
        ["org", "list", "--json"],
        ["--json", "org", "list", "--json"],
        ["--verbose", "--json", "orgs"],
      ].map((args) => runCli(args, { api, token: USER_TOKEN })),
    );
    const expected = runs[2]?.stdout ?? "";
    expect((JSON.parse(expected) as { slug: string }[]).map((o) => o.slug)).toEqual([
      "acme",
      "globex",
      "initech",
    ]);
    for (const r of runs) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(expected);
    }
    expect(runs.slice(0, 4).map((r) => r.stderr)).toEqual(["", "", "", ""]);
  });

  test("--log-level=trace and --log-level trace before the command words", async () => {
    const [eq, sep] = await Promise.all([
      runCli(["--log-level=trace", "org", "view", "acme", "--json"], { api, token: USER_TOKEN }),
      runCli(["--log-level", "TRACE", "org", "view", "acme"], { api, token: USER_TOKEN }),
    ]);
    for (const r of [eq, sep]) {
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain("[trace] → GET ");
    }
    expect(JSON.parse(eq.stdout).slug).toBe("acme");
  });

  test("`--` passes what follows as positionals, after the global flags", async () => {
    const r = await runCli(["--json", "org", "view", "--", "acme"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).slug).toBe("acme");
    const dash = await runCli(["org", "view", "--", "--json"], { api, token: USER_TOKEN });
    // `--json` after `--` is the org argument (rejected as a slug), not the global flag.
    expect(dash).toEqual({
      exitCode: 21,
      stdout: "",
      stderr: "Error: Invalid organization '--json'. Use an organization slug such as acme.\n",
    });
  });
});
