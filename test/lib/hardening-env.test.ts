/** TRACKER_URL hardening: credentials in the URL are refused and never printed; plain http to another host warns. */
import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../src/lib/errors.ts";
import {
  insecureUrlWarning,
  isLoopbackUrl,
  maskUserinfo,
  parseBaseUrl,
  readSettings,
  warnInsecureUrlOnce,
} from "../../src/lib/env.ts";
import { runCli } from "../helpers/cli.ts";

const PASSWORD = "s3cr3t-Pa55";

function configError(f: () => unknown): ConfigError {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe("userinfo in TRACKER_URL", () => {
  test("maskUserinfo hides user and password, even in text that is no URL", () => {
    expect(maskUserinfo(`https://jane:${PASSWORD}@sentry.example.com/`)).toBe(
      "https://***@sentry.example.com/",
    );
    expect(maskUserinfo(`https://jane:${PASSWORD}@sentry example.com`)).toBe(
      "https://***@sentry example.com",
    );
    expect(maskUserinfo("https://jane:p/w@x@host/")).toBe("https://***@host/");
    expect(maskUserinfo(`https://jane:${PASSWORD}`)).toBe("https://jane:***");
    expect(maskUserinfo("https://sentry.example.com:9000/x")).toBe("https://sentry.example.com:9000/x");
    expect(maskUserinfo("sentry example")).toBe("sentry example");
  });

  test("a valid URL with user:password@ is a ConfigError without the password", () => {
    const err = configError(() =>
      readSettings({ TRACKER_URL: `https://jane:${PASSWORD}@sentry.example.com/` }),
    );
    expect(err.message).toBe(
      "TRACKER_URL must not contain a user name or password: 'https://***@sentry.example.com/'",
    );
    expect(err.format()).not.toContain(PASSWORD);
    expect(err.format()).not.toContain("jane");
    const user = configError(() => parseBaseUrl("https://jane@sentry.example.com", "--url"));
    expect(user.message).toStartWith("--url must not contain a user name or password");
    const release = configError(() =>
      readSettings({ TRACKER_RELEASE_URL: `https://u:${PASSWORD}@mirror.example/` }),
    );
    expect(release.format()).not.toContain(PASSWORD);
  });

  test("an invalid URL with user:password@ is reported masked", () => {
    const err = configError(() => parseBaseUrl(`https://jane:${PASSWORD}@sentry example.com`));
    expect(err.message).toBe("TRACKER_URL is not a valid URL: 'https://***@sentry example.com'");
  });

  test("through the CLI: exit 20, the password nowhere in the output", async () => {
    for (const url of [`https://jane:${PASSWORD}@sentry.example.com`, `https://jane:${PASSWORD}@bad host`]) {
      const r = await runCli(["org", "list"], { env: { TRACKER_URL: url }, token: "x".repeat(64) });
      expect(r.exitCode).toBe(20);
      expect(r.stderr).toContain("https://***@");
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    }
  });
});

describe("plain-http TRACKER_URL", () => {
  test("warns for plain http to another host only", () => {
    expect(insecureUrlWarning({ TRACKER_URL: "http://sentry.example.com:9000/" })).toBe(
      "Warning: TRACKER_URL is plain http: your token is sent unencrypted to sentry.example.com:9000.",
    );
    for (const quiet of [
      "https://sentry.example.com",
      "http://localhost:9000",
      "http://127.0.0.1:8000",
      "http://[::1]:9000",
      "not a url",
      "",
      undefined,
    ]) {
      expect(insecureUrlWarning({ TRACKER_URL: quiet })).toBeUndefined();
    }
    expect(isLoopbackUrl("http://127.0.0.1.example.com")).toBe(false);
    // Loopback is exactly localhost, 127.0.0.1 and ::1 (lib/loopback.ts): other names warn.
    for (const loud of ["http://127.1.2.3", "http://dev.localhost"])
      expect(insecureUrlWarning({ TRACKER_URL: loud })).toStartWith("Warning: TRACKER_URL is plain http");
  });

  test("warnInsecureUrlOnce writes the warning once per run", () => {
    let stderr = "";
    const ctx = {
      env: { TRACKER_URL: "http://sentry.example.com" },
      said: new Set<string>(),
      stderr: {
        write: (t: string) => {
          stderr += t;
        },
      },
    };
    warnInsecureUrlOnce(ctx);
    warnInsecureUrlOnce(ctx);
    expect(stderr).toBe(
      "Warning: TRACKER_URL is plain http: your token is sent unencrypted to sentry.example.com.\n",
    );
    const quiet = { ...ctx, env: { TRACKER_URL: "https://sentry.example.com" }, said: new Set<string>() };
    stderr = "";
    warnInsecureUrlOnce(quiet);
    expect(stderr).toBe("");
  });
});
