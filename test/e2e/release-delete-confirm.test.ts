/**
 * `release delete` asks before deleting: on a terminal (a real pseudo-terminal, util-linux
 * `script`) the question defaults to No; without a terminal, in CI/agent mode or with --json it
 * refuses with the context error (exit 22) naming --yes, and sends no DELETE.
 */
import { describe, expect, test } from "bun:test";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { findRelease } from "../fake-api/routes/releases.ts";
import { cliCommand, runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
const deletes = () => api.requests.filter((r) => r.method === "DELETE");

describe("release delete without --yes", () => {
  test.each([
    ["piped", [] as string[], {}],
    ["--json", ["--json"], {}],
    ["CI on a terminal", [], { CI: "true" }],
  ])("%s: refused with exit 22 naming --yes; nothing sent", async (_name, extra, env) => {
    const r = await runInProcess(["release", "delete", "api@1.4.0", "acme", ...extra], {
      env: { TRACKER_CONFIG_DIR: tempDir(), TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: ciToken(), ...env },
      cwd: tempDir(),
      isStdinTTY: extra.length === 0 && "CI" in env,
      isStderrTTY: extra.length === 0 && "CI" in env,
      isStdoutTTY: false,
    });
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("tracker release delete api@1.4.0 acme --yes");
    expect(deletes()).toEqual([]);
    expect(findRelease(api.state, "acme", "api@1.4.0")).toBeDefined();
  });

  test("--yes deletes without asking", async () => {
    const r = await runCli(["release", "delete", "worker@1.4.0", "acme", "--yes"], { api, token: ciToken() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Deleted release worker@1.4.0 from acme.\n");
    expect(deletes()).toHaveLength(1);
    expect(findRelease(api.state, "acme", "worker@1.4.0")).toBeUndefined();
  });
});

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Runs tracker on a pseudo-terminal and types `keys` once the question is on the screen. */
async function onTerminal(args: string[], keys: string): Promise<{ exitCode: number; screen: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_") && !["CI", "CLAUDECODE", "AGENT"].includes(k))
      env[k] = v;
  const cmd = `stty cols 100 rows 20 2>/dev/null; exec ${[...cliCommand(), ...args].map(quote).join(" ")}`;
  const proc = Bun.spawn(["script", "-qec", cmd, "/dev/null"], {
    env: {
      ...env,
      TERM: "xterm",
      TRACKER_CONFIG_DIR: tempDir(),
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: ciToken(),
    },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Type only once the prompt is drawn: the screen is read as it arrives.
  let screen = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let typed = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    screen += decoder.decode(value);
    if (!typed && screen.includes("Delete release")) {
      typed = true;
      proc.stdin.write(keys);
      proc.stdin.end();
    }
  }
  if (!typed) proc.stdin.end();
  return { exitCode: await proc.exited, screen };
}

describe.skipIf(!Bun.which("script"))("release delete on a terminal", () => {
  test("Enter keeps the release (the question defaults to No)", async () => {
    const r = await onTerminal(["release", "delete", "api@1.4.0", "acme"], "\r");
    expect(r.screen).toContain("Delete release api@1.4.0 from acme?");
    expect(r.screen).toContain("nothing was deleted");
    expect(r.exitCode).toBe(0);
    expect(deletes()).toEqual([]);
    expect(findRelease(api.state, "acme", "api@1.4.0")).toBeDefined();
  });

  test("y then Enter deletes it", async () => {
    const r = await onTerminal(["release", "delete", "mobile-app@1.4.0", "acme"], "y\r");
    expect(r.exitCode).toBe(0);
    expect(r.screen).toContain("Deleted release mobile-app@1.4.0 from acme.");
    expect(deletes()).toHaveLength(1);
  });
});
