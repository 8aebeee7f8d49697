/**
 * Issue 32 §4: servers without an endpoint (self-hosted or compatible servers answer 404). A
 * region lookup that 404s is remembered, not repeated before every call; `auth login --token`
 * stores a token it could not verify there, with a warning.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const LOOKUP = "/api/0/organizations/acme/";

describe("a region lookup that answers 404", () => {
  test("is asked once: later calls and later runs use the service URL without asking again", async () => {
    const configDir = tempDir();
    api.inject({
      path: LOOKUP,
      host: "control",
      status: 404,
      body: { detail: "Not found" },
      times: Infinity,
    });
    for (let run = 0; run < 3; run++) {
      const r = await runCli(["project", "list", "acme", "--json"], { api, configDir, token: USER_TOKEN });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    }
    expect(api.requestsTo(LOOKUP, "GET").length).toBe(1);
  });
});

describe("auth login --token on a server without the check endpoint", () => {
  test("a 404 to /api/0/auth/ stores the token unverified, with a warning", async () => {
    const configDir = tempDir();
    api.inject({ path: "/api/0/auth/", status: 404, raw: "<html><body>Not Found</body></html>" });
    const r = await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `Logging in to ${api.url} (from TRACKER_URL).\nWarning: ${api.url} answered 404 to /api/0/auth/, so the token could not be checked; it is stored unverified (a wrong token fails on first use with exit 12).\n`,
    );
    expect(r.stdout).toBe(`Logged in to ${api.url}.\n`);
    const db = new Database(join(configDir, "tracker.db"), { readonly: true });
    const rows = db.query("SELECT token, base_url FROM logins").all() as {
      token: string;
      base_url: string;
    }[];
    db.close();
    expect(rows).toEqual([{ token: USER_TOKEN, base_url: api.url }]);
  });

  test("a 401 is still a rejection: nothing stored", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token", `sntryu_${"f".repeat(64)}`], { api, configDir });
    expect(r.exitCode).toBe(12);
  });
});
