import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertSameHost } from "../../src/lib/auth/token.ts";
import { browserSafeUrl } from "../../src/lib/browser.ts";
import type { StoredCredentials } from "../../src/lib/db/auth.ts";
import { AuthError } from "../../src/lib/errors.ts";
import { childEnv } from "../../src/lib/child-env.ts";
import { writeFileAtomic } from "../../src/lib/setup/atomic.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { startFakeApi } from "../fake-api/server.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const dir = tempDir("tracker-trust-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("child processes", () => {
  test("never inherit tracker's or Sentry's tokens; everything else passes", () => {
    expect(
      childEnv({
        PATH: "/bin",
        HOME: "/h",
        TRACKER_AUTH_TOKEN: "a",
        TRACKER_TOKEN: "b",
        SENTRY_AUTH_TOKEN: "c",
        X: undefined,
      }),
    ).toEqual({ PATH: "/bin", HOME: "/h" });
  });
});

describe("the browser opener", () => {
  const service = "https://sentry.io";
  test.each([
    ["https://sentry.io/oauth/device/?user_code=ABCD", true],
    ["https://acme.sentry.io/issues/1/", true],
    ["file:///etc/passwd", false],
    ["javascript:alert(1)", false],
    ["ms-settings:privacy", false],
    ["--help", false],
    ["http://sentry.io/oauth/device/", false],
    ["https://evil.example/oauth/device/", false],
    ["https://sentry.io.evil.example/", false],
    ["https://user:pw@sentry.io/", false],
    [" https://sentry.io/", false],
  ])("%p → %p", (url, ok) => {
    expect(browserSafeUrl(url, service) !== undefined).toBe(ok);
  });

  test("self-hosted: its own host, and plain http only on loopback", () => {
    expect(browserSafeUrl("http://127.0.0.1:9000/oauth/device/", "http://127.0.0.1:9000")).toBeDefined();
    expect(browserSafeUrl("https://sentry.example.com/x", "https://sentry.example.com")).toBeDefined();
    expect(browserSafeUrl("https://acme.sentry.io/x", "https://sentry.example.com")).toBeUndefined();
    expect(browserSafeUrl("http://sentry.example.com/x", "http://sentry.example.com")).toBeUndefined();
  });
});

describe("startup-file edits", () => {
  test("an existing 0600 file stays 0600 and a new one gets exactly 0644, whatever the umask", () => {
    const old = process.umask(0);
    try {
      const rc = join(dir, ".bashrc");
      writeFileSync(rc, "# mine\n");
      chmodSync(rc, 0o600);
      writeFileAtomic(rc, "# mine\nexport PATH=x\n");
      expect(statSync(rc).mode & 0o777).toBe(0o600);
      expect(readFileSync(rc, "utf8")).toBe("# mine\nexport PATH=x\n");
      const fresh = join(dir, ".zshrc");
      writeFileAtomic(fresh, "x\n");
      expect(statSync(fresh).mode & 0o777).toBe(0o644);
    } finally {
      process.umask(old);
    }
  });
});

describe("tokens", () => {
  test("a token with a newline inside is invalid (exit 12) before any request", async () => {
    const r = await runCli(["org", "list"], { api, env: { TRACKER_TOKEN: `${USER_TOKEN}\nextra` } });
    expect(r.exitCode).toBe(12);
    expect(r.stderr).toStartWith(
      "Error: The token from TRACKER_TOKEN contains whitespace or control characters.",
    );
    expect(r.stderr).not.toContain(USER_TOKEN);
    expect(api.requests).toEqual([]);
  });
});

describe("stored logins are host-bound", () => {
  const login = (base_url: string | null) => ({
    token: USER_TOKEN,
    refresh_token: null,
    expires_at: null,
    issued_at: null,
    kind: "user",
    base_url,
    user_json: null,
  });
  test("a login is only accepted for its own service URL, and one of unknown service for none", () => {
    const { ctx } = createTestContext({ api, configDir: tempDir("tracker-trust-host-") });
    expect(() => assertSameHost(ctx, login(ctx.settings.baseUrl) as StoredCredentials)).not.toThrow();
    for (const other of ["https://sentry.io", `${ctx.settings.baseUrl}/`, null]) {
      expect(() => assertSameHost(ctx, login(other) as StoredCredentials)).toThrow(AuthError);
    }
    ctx.store.close();
  });
});

describe("the token on disk", () => {
  /** Every regular file below `root`, except the database and its -wal/-shm. */
  function filesBelow(root: string): string[] {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !/^tracker\.db(-wal|-shm)?$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
  }

  test("is in the database only: no other file that tracker writes (caches, rc files, skills, completion) holds it", async () => {
    const home = tempDir("tracker-trust-home-");
    const configDir = join(home, ".tracker");
    const cwd = tempDir("tracker-trust-cwd-");
    const env = { HOME: home, SHELL: "/bin/bash", TRACKER_AUTH_TOKEN: undefined };
    const runs = [
      await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir, cwd, env }),
      await runCli(["org", "list"], { api, configDir, cwd, env }),
      await runCli(["issue", "list", "acme/web", "-n", "2"], { api, configDir, cwd, env }),
      await runCli(["issue", "view", "acme/WEB-4Y"], { api, configDir, cwd, env }),
      await runCli(["trace", "list", "acme/web", "-n", "1"], { api, configDir, cwd, env }),
      await runCli(["defaults", "set", "acme/web"], { api, configDir, cwd, env }),
      await runCli(["cli", "setup"], { api, configDir, cwd, env }),
      await runCli(["completion", "bash"], { api, configDir, cwd, env }),
      await runCli(["__complete", "issue", "view", ""], { api, configDir, cwd, env }),
      await runCli(["mcp", "--print-config", "acme/web"], { api, configDir, cwd, env }),
      await runCli(["auth", "status", "--json", "--log-level", "trace"], { api, configDir, cwd, env }),
    ];
    expect(runs.map((r) => r.exitCode)).toEqual(runs.map(() => 0));
    const secrets = [USER_TOKEN, USER_TOKEN.slice(7, 40)];
    for (const r of runs) for (const s of secrets) expect(r.stdout + r.stderr).not.toContain(s);
    const files = [...filesBelow(home), ...filesBelow(cwd)];
    // cli setup wrote its files (the skills; PATH is left alone when running from source), so the
    // check below looked at something.
    expect(files.filter((f) => f.endsWith("SKILL.md")).length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(f, "latin1");
      for (const s of secrets)
        expect({ file: f, holds: text.includes(s) }).toEqual({ file: f, holds: false });
    }
    // And it is where it belongs.
    const db = new Database(join(configDir, "tracker.db"), { readonly: true });
    expect(db.query("SELECT token FROM logins").all()).toEqual([{ token: USER_TOKEN }]);
    db.close();
  });
});

describe("a redirect to another host", () => {
  test("within the service's own origin it is followed as before", async () => {
    api.inject({
      path: "/api/0/organizations/",
      status: 301,
      headers: { Location: "/api/0/organizations/?moved=1" },
    });
    const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    const asked = api.requestsTo("/api/0/organizations/");
    expect(asked.map((q) => q.query.get("moved"))).toContain("1");
    expect(asked.every((q) => q.headers.authorization === `Bearer ${USER_TOKEN}`)).toBe(true);
  });

  test("never carries the token there, and is said as a redirect (exit 20), not as a rejected token", async () => {
    const other = await startFakeApi();
    try {
      api.inject({
        path: "/api/0/organizations/acme/projects/",
        status: 302,
        headers: { Location: `${other.url}/api/0/organizations/acme/projects/` },
      });
      const r = await runCli(["project", "list", "acme"], { api, token: USER_TOKEN });
      const from = api.requestsTo("/api/0/organizations/acme/projects/")[0];
      const reached = other.requestsTo("/api/0/organizations/acme/projects/");
      expect(reached).toHaveLength(1);
      expect(reached[0]?.headers.authorization).toBeUndefined();
      expect(r.exitCode).toBe(20);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `Error: ${api.urls[from?.host ?? "control"]} redirected the request to ${other.url}; tracker sends the token only to the service it belongs to, so it stopped there.\n\n` +
          `Suggestion: If the service moved, point tracker at it: TRACKER_URL=${other.url} (and \`tracker auth login --url ${other.url}\` for a stored login).\n`,
      );
    } finally {
      other.stop();
    }
  });
});
