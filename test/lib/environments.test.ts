import { describe, expect, test } from "bun:test";
import { environmentArgv, environmentKey, environmentToken } from "../../src/lib/environments.ts";
import { parseEnvironment } from "../../src/lib/filter-flags.ts";
import { ValidationError } from "../../src/lib/errors.ts";

describe("environments", () => {
  test.each([
    [[], undefined],
    [["production"], "environment:production"],
    [["production", "staging"], "environment:[production,staging]"],
    [["my env", 'a"b'], 'environment:["my env","a\\"b"]'],
    [["a,b"], 'environment:"a,b"'],
  ] as const)("search token of %j", (envs, want) => {
    expect(environmentToken(envs)).toBe(want);
  });

  test("cursor key part only when there are environments (older keys stay valid)", () => {
    expect(environmentKey([])).toEqual({});
    expect(environmentKey(["a", "b"])).toEqual({ environment: "a,b" });
  });

  test("printed flags repeat only what was given on the command line (not the stored default)", () => {
    expect(environmentArgv(["production"], undefined)).toEqual([]);
    expect(environmentArgv(["a", "b"], ["a", "b"])).toEqual(["-e", "a", "-e", "b"]);
  });

  test.each(["", "  ", "a/b", "a\nb", "x".repeat(65)])("parseEnvironment refuses %p", (raw) => {
    expect(() => parseEnvironment(raw)).toThrow(ValidationError);
  });
  test("parseEnvironment trims", () => {
    expect(parseEnvironment(" production ")).toBe("production");
  });
});
