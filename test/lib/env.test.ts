import { describe, expect, test } from "bun:test";
import {
  DEFAULT_BASE_URL,
  isHostedUrl,
  parseBaseUrl,
  parseLogLevel,
  readSettings,
} from "../../src/lib/env.ts";
import { ConfigError, ValidationError } from "../../src/lib/errors.ts";

describe("parseLogLevel", () => {
  test("accepts the five levels in any case and with spaces", () => {
    expect(["error", "WARN", " info ", "Debug", "trace"].map((v) => parseLogLevel(v, "x"))).toEqual([
      "error",
      "warn",
      "info",
      "debug",
      "trace",
    ]);
  });

  test("anything else is a ValidationError naming the source and the allowed values", () => {
    expect(() => parseLogLevel("verbose", "TRACKER_LOG_LEVEL")).toThrow(
      new ValidationError(
        "Invalid log level 'verbose' in TRACKER_LOG_LEVEL. Allowed values: error, warn, info, debug, trace.",
      ),
    );
    expect(() => parseLogLevel(" ", "--log-level")).toThrow(
      "--log-level needs a value. Allowed values: error, warn, info, debug, trace.",
    );
  });
});

describe("readSettings", () => {
  test("defaults: hosted URL, nothing else set", () => {
    expect(readSettings({})).toEqual({
      baseUrl: DEFAULT_BASE_URL,
      selfHosted: false,
      authToken: undefined,
      token: undefined,
      clientId: undefined,
      org: undefined,
      project: undefined,
      dsn: undefined,
      noAutoRepair: false,
      releaseUrl: undefined,
      installDir: undefined,
    });
  });

  test("reads and trims every variable; blank counts as unset; only '1' disables auto-repair", () => {
    const s = readSettings({
      TRACKER_URL: " https://sentry.example.com/ ",
      TRACKER_AUTH_TOKEN: " tok ",
      TRACKER_TOKEN: "",
      TRACKER_ORG: "acme",
      TRACKER_PROJECT: "  ",
      TRACKER_CLI_NO_AUTO_REPAIR: "1",
      TRACKER_INSTALL_DIR: " /opt/tracker/bin ",
    });
    expect(s).toMatchObject({
      installDir: "/opt/tracker/bin",
      baseUrl: "https://sentry.example.com",
      selfHosted: true,
      authToken: "tok",
      token: undefined,
      org: "acme",
      project: undefined,
      noAutoRepair: true,
    });
    expect(readSettings({ TRACKER_CLI_NO_AUTO_REPAIR: "true" }).noAutoRepair).toBe(false);
  });

  test("bad TRACKER_URL is a ConfigError with a suggestion", () => {
    expect(() => readSettings({ TRACKER_URL: "sentry" })).toThrow(ConfigError);
    expect(() => readSettings({ TRACKER_URL: "file:///etc/passwd" })).toThrow(
      "TRACKER_URL must use http or https, got 'file:'",
    );
  });
});

describe("URLs", () => {
  test("parseBaseUrl keeps a path prefix, drops query and trailing slashes", () => {
    expect(parseBaseUrl("http://127.0.0.1:9000/sentry//?x=1")).toBe("http://127.0.0.1:9000/sentry");
  });

  test("isHostedUrl: sentry.io and its subdomains only", () => {
    expect(
      ["https://sentry.io", "https://us.sentry.io", "https://notsentry.io", "bad"].map(isHostedUrl),
    ).toEqual([true, true, false, false]);
  });
});
