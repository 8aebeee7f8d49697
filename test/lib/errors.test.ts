import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderError } from "../../src/lib/error-render.ts";
import {
  AnalysisError,
  ApiError,
  AuthError,
  CliError,
  ConfigError,
  ContextError,
  DeviceFlowError,
  NetworkError,
  ResolutionError,
  UpgradeError,
  ValidationError,
} from "../../src/lib/errors.ts";
import { EXIT, EXIT_CODE_TABLE } from "../../src/lib/exit-codes.ts";
import { exitCodeFor, formatError } from "../../src/lib/error-render.ts";

const render = (e: unknown) => renderError(e, false);

describe("error formats (exact text on stderr)", () => {
  test("CliError: Error: <message>", () => {
    expect(render(new CliError("Something broke"))).toBe("Error: Something broke");
    expect(exitCodeFor(new CliError("x"))).toBe(1);
  });

  test("ApiError: summary, then the API detail indented", () => {
    const e = new ApiError({ status: 400, detail: "Invalid query\nnear 'is:'" });
    expect(render(e)).toBe("Error: Request failed with status 400\n  Invalid query\n  near 'is:'");
    expect(e.exitCode).toBe(30);
    expect(render(new ApiError({ status: 500 }))).toBe("Error: Request failed with status 500");
    expect(
      render(new ApiError({ status: 404, detail: "Not found", hint: "Slugs are case-sensitive." })),
    ).toBe("Error: Request failed with status 404\n  Not found\n\nSlugs are case-sensitive.");
  });

  test("AuthError: the three reasons of the spec, each with login advice and its own code", () => {
    expect(render(new AuthError("not_authenticated"))).toBe(
      "Error: Not authenticated\n\nRun `tracker auth login` to log in (in CI, set TRACKER_AUTH_TOKEN).",
    );
    expect(render(new AuthError("expired"))).toBe(
      "Error: Authentication expired\n\nRun `tracker auth login` again.",
    );
    expect(render(new AuthError("invalid"))).toBe(
      "Error: Invalid token\n\nCheck the token, or run `tracker auth login` to get a new one.",
    );
    expect(render(new AuthError("expired", "Session expired and no refresh token available"))).toBe(
      "Error: Session expired and no refresh token available\n\nRun `tracker auth login` again.",
    );
    expect([
      new AuthError("not_authenticated").exitCode,
      new AuthError("expired").exitCode,
      new AuthError("invalid").exitCode,
    ]).toEqual([10, 11, 12]);
  });

  test("ConfigError: message, blank line, Suggestion:", () => {
    const e = new ConfigError("attempt to write a readonly database", "Make the directory writable.");
    expect(render(e)).toBe(
      "Error: attempt to write a readonly database\n\nSuggestion: Make the directory writable.",
    );
    expect(render(new ConfigError("Bad config"))).toBe("Error: Bad config");
    expect(e.exitCode).toBe(20);
  });

  test("ContextError: '<Resource> is required.', a command example, then alternatives", () => {
    const e = new ContextError("Organization", "tracker org view <org>", [
      "Set TRACKER_ORG",
      "Run `tracker defaults set <org>`",
    ]);
    expect(render(e)).toBe(
      "Error: Organization is required.\n\n  tracker org view <org>\n\nOr:\n  - Set TRACKER_ORG\n  - Run `tracker defaults set <org>`",
    );
    expect(e.exitCode).toBe(22);
    expect(render(new ContextError("Organization and project", "tracker issue list <org>/<project>"))).toBe(
      "Error: Organization and project are required.\n\n  tracker issue list <org>/<project>",
    );
  });

  test("ResolutionError: '<Resource> <headline>.', primary hint, alternatives", () => {
    const e = new ResolutionError(
      "Project 'web'",
      "was found in several organizations",
      "Name the org: acme/web",
      ["tracker issue list acme/web", "tracker issue list globex/web"],
    );
    expect(render(e)).toBe(
      "Error: Project 'web' was found in several organizations.\n\nName the org: acme/web\n\nOr:\n  - tracker issue list acme/web\n  - tracker issue list globex/web",
    );
    expect(e.exitCode).toBe(23);
    expect(render(new ResolutionError("Issue 'X-1'", "not found"))).toBe("Error: Issue 'X-1' not found.");
  });

  test("ValidationError: Error: <validation message>, exit 21", () => {
    const e = new ValidationError("--limit must be from 1 to 1000, got 0.", "limit");
    expect(render(e)).toBe("Error: --limit must be from 1 to 1000, got 0.");
    expect(e.exitCode).toBe(21);
    expect(e.field).toBe("limit");
  });

  test("DeviceFlowError: message and hint, carries the OAuth code", () => {
    for (const code of ["authorization_pending", "slow_down", "expired_token", "access_denied"] as const) {
      const e = new DeviceFlowError(code, `Device flow failed: ${code}`, "Run `tracker auth login` again.");
      expect(render(e)).toBe(`Error: Device flow failed: ${code}\n\nRun \`tracker auth login\` again.`);
      expect(e.code).toBe(code);
      expect(e.exitCode).toBe(51);
    }
  });

  test("AnalysisError: message with the settings URL, one code per reason", () => {
    const url = "https://acme.sentry.io/settings/seer/";
    const e = new AnalysisError("not_enabled", "AI analysis is not enabled for acme.", url);
    expect(render(e)).toBe(`Error: AI analysis is not enabled for acme.\n\n  ${url}`);
    expect(
      (["not_enabled", "no_budget", "ai_disabled", "failed"] as const).map(
        (r) => new AnalysisError(r, "m", url).exitCode,
      ),
    ).toEqual([40, 41, 42, 43]);
  });

  test("UpgradeError: every reason of the spec, message and hint, exit 50", () => {
    for (const reason of [
      "unknown_method",
      "unsupported_operation",
      "network_error",
      "execution_failed",
      "version_not_found",
    ] as const) {
      const e = new UpgradeError(reason, `Upgrade failed (${reason})`, "The installed binary is unchanged.");
      expect(render(e)).toBe(`Error: Upgrade failed (${reason})\n\nThe installed binary is unchanged.`);
      expect(e.reason).toBe(reason);
      expect(e.exitCode).toBe(50);
    }
  });

  test("NetworkError", () => {
    expect(render(new NetworkError("Could not connect to x:1", "Check the proxy."))).toBe(
      "Error: Could not connect to x:1\n\nCheck the proxy.",
    );
    expect(new NetworkError("x").exitCode).toBe(31);
  });
});

describe("unexpected exceptions", () => {
  const crash = new TypeError("Cannot read properties of undefined (reading 'slug')");

  test("default level: one line plus the debug pointer, no stack", () => {
    expect(renderError(crash, false)).toBe(
      "Error: Cannot read properties of undefined (reading 'slug')\nRun with --log-level debug for details.",
    );
    expect(renderError(new Error("first\nsecond"), false)).toBe(
      "Error: first\nRun with --log-level debug for details.",
    );
    expect(renderError("a string", false)).toBe("Error: a string\nRun with --log-level debug for details.");
    expect(exitCodeFor(crash)).toBe(1);
  });

  test("debug: the stack follows", () => {
    const text = renderError(crash, true);
    expect(text.startsWith("Error: Cannot read properties of undefined (reading 'slug')\nTypeError:")).toBe(
      true,
    );
    expect(text).toContain("errors.test.ts");
    expect(text).not.toContain("Run with --log-level debug");
  });

  test("formatError never includes a stack for expected failures", () => {
    expect(formatError(new ValidationError("bad"))).toBe("bad");
    expect(formatError(42)).toBe("42");
  });
});

describe("exit-code table", () => {
  test("every EXIT code is documented exactly once, in ascending order", () => {
    const codes = EXIT_CODE_TABLE.map((r) => r.code);
    expect(codes).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b));
    expect(new Set(EXIT_CODE_TABLE.map((r) => r.name)).size).toBe(EXIT_CODE_TABLE.length);
  });

  test("README.md lists every row of EXIT_CODE_TABLE", () => {
    const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Exit codes"), readme.indexOf("## Environment variables"));
    for (const row of EXIT_CODE_TABLE) {
      expect(section).toContain(`| ${row.code} | \`${row.name}\` | ${row.when} | ${row.action} |`);
    }
  });
});
