import { describe, expect, test } from "bun:test";
import type { RouteMap } from "@stricli/core";
import { loadRoutesFor } from "../../src/app.ts";
import type { TrackerContext } from "../../src/context.ts";
import { parseCursor, parseIntInRange, parsePeriod } from "../../src/lib/flags.ts";
import { firstCommandWord, prepareArgs } from "../../src/main.ts";
import { ValidationError } from "../../src/lib/errors.ts";

const root = await loadRoutesFor(undefined);
const args = (...argv: string[]) => prepareArgs(argv, root).args;

describe("prepareArgs: global flags move to the leaf command", () => {
  test("before, between and after the command words", () => {
    expect(args("--json", "org", "list")).toEqual(["org", "list", "--json"]);
    expect(args("org", "--verbose", "list")).toEqual(["org", "list", "--verbose"]);
    expect(args("org", "list", "--json")).toEqual(["org", "list", "--json"]);
    expect(args("--log-level", "trace", "org", "view", "acme")).toEqual([
      "org",
      "view",
      "acme",
      "--log-level",
      "trace",
    ]);
  });

  test("repeats collapse to one canonical flag; the last value wins", () => {
    expect(args("--json", "org", "list", "--json")).toEqual(["org", "list", "--json"]);
    expect(args("--json", "org", "list", "--no-json")).toEqual(["org", "list"]);
    expect(args("--log-level=debug", "org", "list", "--log-level", "warn")).toEqual([
      "org",
      "list",
      "--log-level",
      "warn",
    ]);
    const p = prepareArgs(["--verbose", "--log-level=error", "org", "list"], root);
    expect(p).toMatchObject({ verbose: true, logLevel: "error", json: false });
    expect(p.args).toEqual(["org", "list", "--verbose", "--log-level", "error"]);
  });

  test("--log-level=x and --logLevel forms; the value is lower-cased for the leaf's enum", () => {
    expect(prepareArgs(["--log-level=TRACE", "org", "list"], root)).toMatchObject({
      logLevel: "TRACE",
      args: ["org", "list", "--log-level", "trace"],
    });
    expect(prepareArgs(["org", "list", "--logLevel", "info"], root).logLevel).toBe("info");
    expect(prepareArgs(["org", "list", "--logLevel=warn"], root).logLevel).toBe("warn");
  });

  test("a missing --log-level value is recorded as '' (main reports it), the next flag is kept", () => {
    expect(prepareArgs(["org", "list", "--log-level"], root)).toMatchObject({
      logLevel: "",
      args: ["org", "list"],
    });
    expect(prepareArgs(["--log-level", "--json", "org", "list"], root)).toMatchObject({
      logLevel: "",
      json: true,
      args: ["org", "list", "--json"],
    });
  });

  test("flag values equal to command words are not mistaken for routes", () => {
    // `trace` is both a command and a log level; `list` is both a verb and a positional value.
    expect(args("--log-level", "trace", "trace", "list")).toEqual(["trace", "list", "--log-level", "trace"]);
    expect(args("--json", "org", "view", "list")).toEqual(["org", "view", "list", "--json"]);
    expect(args("issue", "list", "-q", "org", "--verbose")).toEqual([
      "issue",
      "list",
      "-q",
      "org",
      "--verbose",
    ]);
  });

  test("`--` ends flag handling: globals are inserted before it, words after it stay untouched", () => {
    expect(args("--json", "org", "view", "--", "--verbose")).toEqual([
      "org",
      "view",
      "--json",
      "--",
      "--verbose",
    ]);
    expect(prepareArgs(["org", "view", "--", "--json"], root)).toMatchObject({
      json: false,
      args: ["org", "view", "--", "--json"],
    });
    expect(args("org", "view", "--", "--help")).toEqual(["org", "view", "--", "--help"]);
    expect(prepareArgs(["org", "view", "--", "--help"], root).help).toBe(false);
  });

  test("route maps and help get no globals (they have no flags); a default command does", () => {
    expect(args("--json")).toEqual([]);
    expect(args("org", "--json")).toEqual(["org"]);
    expect(args("--json", "defaults")).toEqual(["defaults", "--json"]);
    expect(prepareArgs(["org", "list", "--help", "--json"], root)).toMatchObject({
      help: true,
      args: ["org", "list", "--help"],
    });
    expect(args("nosuch", "--json")).toEqual(["nosuch"]);
  });

  test("hidden plural shortcuts are commands too", () => {
    expect(args("--json", "orgs")).toEqual(["orgs", "--json"]);
  });
});

describe("flag parsers", () => {
  test("parseIntInRange rejects abc, NaN, decimals, negatives and out-of-range values", () => {
    expect(parseIntInRange("25", "limit", 1, 1000)).toBe(25);
    expect(parseIntInRange(" +7 ", "limit", 1, 1000)).toBe(7);
    for (const bad of ["abc", "NaN", "1.5", "-1", "", "1e3", "0x10", "Infinity"]) {
      expect(() => parseIntInRange(bad, "limit", 1, 1000)).toThrow(
        `--limit must be a whole number from 1 to 1000, got '${bad}'.`,
      );
    }
    expect(() => parseIntInRange("0", "limit", 1, 1000)).toThrow("--limit must be from 1 to 1000, got 0.");
    expect(() => parseIntInRange("1001", "limit", 1, 1000)).toThrow(ValidationError);
    expect(() => parseIntInRange("99999999999999999999", "limit", 1, 1000)).toThrow(ValidationError);
  });

  test("parsePeriod accepts the one duration grammar (s, m, h, d, w)", () => {
    expect(["24h", "90d", "2w", "30m"].map(parsePeriod)).toEqual(["24h", "90d", "2w", "30m"]);
    for (const bad of ["0d", "d", "90", "1y", "-1d", "1.5d"])
      expect(() => parsePeriod(bad)).toThrow(ValidationError);
  });

  test("parseCursor accepts last and Sentry cursors", () => {
    expect(parseCursor("last")).toBe("last");
    expect(parseCursor("1700000000000:100:0")).toBe("1700000000000:100:0");
    expect(() => parseCursor("abc")).toThrow("--cursor must be 'last' or a cursor like 0:100:0, got 'abc'.");
  });
});

describe("firstCommandWord: which command word's routes a run loads", () => {
  test("skips global flags and a --log-level value", () => {
    expect(firstCommandWord(["issue", "list"])).toBe("issue");
    expect(firstCommandWord(["--json", "issue", "list"])).toBe("issue");
    expect(firstCommandWord(["--log-level", "debug", "--no-verbose", "trace", "view"])).toBe("trace");
    expect(firstCommandWord(["--logLevel=trace", "--noJson", "issues"])).toBe("issues");
  });

  test("help, other flags, or nothing: the whole tree", () => {
    expect(firstCommandWord([])).toBeUndefined();
    expect(firstCommandWord(["--help"])).toBeUndefined();
    expect(firstCommandWord(["-h", "issue"])).toBeUndefined();
    expect(firstCommandWord(["--log-level"])).toBeUndefined();
  });
});

describe("loadRoutesFor: a run loads only its command word", () => {
  test("a known word gives a root with that route alone; anything else the whole tree", async () => {
    const names = (r: RouteMap<TrackerContext>) => r.getAllEntries().map((e) => e.name.original);
    expect(names(await loadRoutesFor("issue"))).toEqual(["issue"]);
    expect(names(await loadRoutesFor("issues"))).toEqual(["issues"]);
    const all = names(await loadRoutesFor("isue"));
    expect(all).toEqual([
      "auth",
      "issue",
      "event",
      "trace",
      "log",
      "span",
      "query",
      "attribute",
      "release",
      "monitor",
      "feedback",
      "replay",
      "sourcemap",
      "proguard",
      "dart-symbol-map",
      "code-mappings",
      "debug-files",
      "status",
      "org",
      "project",
      "defaults",
      "cli",
      "upgrade",
      "api",
      "completion",
      "mcp",
      "__complete",
      "issues",
      "traces",
      "orgs",
      "projects",
      "releases",
      "sourcemaps",
      "explore",
      "dif",
    ]);
    expect(names(await loadRoutesFor("constructor"))).toEqual(all);
  });
});

describe("prepareArgs: a command's flag values are its own", () => {
  test("a value that looks like a global or output flag stays with the flag that takes it", () => {
    expect(args("issue", "list", "-q", "--json")).toEqual(["issue", "list", "-q", "--json"]);
    expect(args("issue", "list", "--query", "--verbose", "--json")).toEqual([
      "issue",
      "list",
      "--query",
      "--verbose",
      "--json",
    ]);
    const p = prepareArgs(["issue", "list", "-q", "--format"], root);
    expect(p.args).toEqual(["issue", "list", "-q", "--format"]);
    expect(p.json).toBe(false);
  });

  test("-H is not help: it reaches the command (tracker api's --header)", () => {
    const p = prepareArgs(["api", "-H", "Accept: application/json", "/organizations/"], root);
    expect(p.help).toBe(false);
    expect(p.args).toEqual(["api", "-H", "Accept: application/json", "/organizations/"]);
    expect(prepareArgs(["issue", "list", "--help-all"], root).help).toBe(true);
  });
});
