import { sanitizeTerminal } from "../../src/lib/sanitize.ts";
import { describe, expect, test } from "bun:test";
import { LOG_LEVELS, type LogLevel } from "../../src/lib/env.ts";
import { createLogger } from "../../src/lib/log.ts";

function capture(level: LogLevel, color = false) {
  const sink = {
    text: "",
    write(t: string) {
      this.text += t;
    },
  };
  return { sink, log: createLogger(level, sink, color) };
}

const emitAll = (log: ReturnType<typeof createLogger>) => {
  log.error("e");
  log.warn("w");
  log.info("i");
  log.debug("d");
  log.trace("t");
};

describe("createLogger", () => {
  test("each level prints itself and everything quieter, with fixed prefixes", () => {
    const expected: Record<LogLevel, string> = {
      error: "Error: e\n",
      warn: "Error: e\nWarning: w\n",
      info: "Error: e\nWarning: w\ni\n",
      debug: "Error: e\nWarning: w\ni\n[debug] d\n",
      trace: "Error: e\nWarning: w\ni\n[debug] d\n[trace] t\n",
    };
    for (const level of LOG_LEVELS) {
      const { sink, log } = capture(level);
      emitAll(log);
      expect(sink.text).toBe(expected[level]);
    }
  });

  test("enabled() matches what is printed", () => {
    const { log } = capture("debug");
    expect(LOG_LEVELS.map((l) => log.enabled(l))).toEqual([true, true, true, true, false]);
  });

  test("registered secrets and token shapes are redacted in every line", () => {
    const { sink, log } = capture("trace");
    log.addSecret("hunter2-secret");
    log.debug("password is hunter2-secret; header Authorization: Bearer abc.def");
    log.trace(`token sntryu_${"f".repeat(64)} and ${"Z9".repeat(25)}`);
    expect(sink.text).toBe(
      "[debug] password is [REDACTED]; header Authorization: Bearer [REDACTED]\n[trace] token [REDACTED] and [REDACTED]\n",
    );
  });

  test("colour only dims the prefix, and only when asked", () => {
    const { sink, log } = capture("info", true);
    log.warn("careful");
    log.info("plain");
    expect(sanitizeTerminal(sink.text, true)).toBe("\x1b[2mWarning: \x1b[22mcareful\nplain\n");
    expect(sanitizeTerminal(sink.text, false)).toBe("Warning: careful\nplain\n");
  });
});
