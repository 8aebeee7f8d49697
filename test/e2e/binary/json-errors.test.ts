/**
 * Errors as data through the real binary (CI runs this directory against dist/tracker): every
 * error class tracker raises prints exactly one JSON object on stderr with --json, nothing on
 * stdout, and the same exit code as the text error.
 */
import { expect, test } from "bun:test";
import { setAutofixScenario } from "../../fake-api/routes/autofix.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { runCli } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

interface Case {
  args: string[];
  env?: Record<string, string | undefined>;
  token?: string | null;
  setup?: () => void;
  want: Record<string, unknown>;
}

const CASES: Case[] = [
  { args: ["org", "list"], token: null, want: { class: "AuthError", reason: "not_authenticated", code: 10 } },
  { args: ["org", "list"], token: "not a token", want: { class: "AuthError", code: 12 } },
  { args: ["org", "view", "nope"], want: { class: "ResolutionError", code: 23 } },
  { args: ["issue", "list", "acme/web", "-n", "0"], want: { class: "ValidationError", code: 21 } },
  { args: ["issue", "list"], want: { class: "ContextError", code: 22 } },
  { args: ["issue", "list", "--nosuch"], want: { class: "UsageError", code: 2 } },
  { args: ["org", "list"], env: { TRACKER_URL: "ftp://x" }, want: { class: "ConfigError", code: 20 } },
  {
    args: ["org", "list"],
    env: { TRACKER_URL: "http://127.0.0.1:1" },
    want: { class: "NetworkError", code: 31 },
  },
  {
    args: ["query", "acme/web", "--dataset", "spans", "-F", "bogus()"],
    want: { class: "ApiError", code: 30, status: 400 },
  },
  {
    args: ["issue", "resolve", "acme/WEB-4Y", "--in", "web@9.9.9"],
    want: { class: "ResolutionError", code: 23 },
  },
  {
    args: ["issue", "explain", "acme/4190"],
    setup: () => setAutofixScenario(api.state, "4190", { deny: "ai_disabled" }),
    want: { class: "AnalysisError", reason: "ai_disabled", code: 42 },
  },
  {
    // --log-level warn: without the line that says which service the login goes to.
    args: ["auth", "login", "--log-level", "warn"],
    token: null,
    env: { TRACKER_CLIENT_ID: "some-client" },
    setup: () => api.inject({ path: "/oauth/device/code/", status: 401, body: { error: "invalid_client" } }),
    want: { class: "DeviceFlowError", reason: "invalid_client", code: 51 },
  },
  {
    args: ["upgrade", "--check"],
    env: { TRACKER_RELEASE_URL: "http://127.0.0.1:1" },
    want: { class: "UpgradeError", reason: "network_error", code: 31 },
  },
  {
    args: ["upgrade", "--check"],
    env: { TRACKER_RELEASE_URL: "http://releases.example.com" },
    want: { class: "UpgradeError", code: 50 },
  },
];

for (const c of CASES) {
  test(`${String(c.want.class)}: tracker ${c.args.join(" ")}`, async () => {
    const run = (json: boolean) => {
      c.setup?.();
      return runCli(json ? [...c.args, "--json"] : c.args, {
        api,
        subprocess: true,
        env: c.env,
        ...(c.token === null ? {} : { token: c.token ?? USER_TOKEN }),
      });
    };
    const text = await run(false);
    const json = await run(true);
    expect(text.stderr).toStartWith("Error: ");
    expect(json.exitCode).toBe(text.exitCode);
    expect(json.stdout).toBe("");
    const lines = json.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    const error = JSON.parse(lines[0] ?? "").error;
    expect(error).toMatchObject(c.want);
    expect(typeof error.message).toBe("string");
    expect(json.stderr).not.toContain(USER_TOKEN);
  }, 30_000);
}
