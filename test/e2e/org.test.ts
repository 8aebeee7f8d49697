import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("org list", () => {
  test("--json lists organizations of both regions, fetched per region", async () => {
    const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const orgs = JSON.parse(r.stdout) as { slug: string }[];
    expect(orgs.map((o) => o.slug)).toEqual(["acme", "globex", "initech"]);
    expect(api.requestsTo("/api/0/users/me/regions/")).toHaveLength(1);
    const listCalls = api.requestsTo("/api/0/organizations/");
    expect(listCalls.map((c) => c.host).sort()).toEqual(["de", "us"]);
    expect(listCalls.every((c) => c.headers.authorization === `Bearer ${USER_TOKEN}`)).toBe(true);
  });

  test("human output is a table on a terminal, tab-separated rows piped; global flags work before the command words", async () => {
    const tty = await runCli(["--verbose", "org", "list"], {
      api,
      token: USER_TOKEN,
      terminal: { stdout: true },
      env: { NO_COLOR: "1" },
    });
    expect(tty.exitCode).toBe(0);
    const lines = tty.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+REGION$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[0])).toEqual(["acme", "globex", "initech"]);
    const piped = await runCli(["--verbose", "org", "list"], { api, token: USER_TOKEN });
    const rows = piped.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows.map((cells) => [cells[0], cells.length])).toEqual([
      ["acme", 3],
      ["globex", 3],
      ["initech", 3],
    ]);
  });

  test("caches org regions in the database for later org-scoped calls", async () => {
    const configDir = tempDir();
    await runCli(["org", "list"], { api, token: USER_TOKEN, configDir });
    api.reset();
    const r = await runCli(["org", "view", "globex", "--json"], { api, token: USER_TOKEN, configDir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).slug).toBe("globex");
    expect(api.requests.map((q) => `${q.host} ${q.path}`)).toEqual(["de /api/0/organizations/globex/"]);
  });

  test("no token: AuthError not_authenticated, exit 10, nothing on stdout", async () => {
    const r = await runCli(["org", "list"], { api });
    expect(r.exitCode).toBe(10);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: Not authenticated\n");
  });

  test("rejected token: exit 12", async () => {
    const r = await runCli(["org", "list"], { api, token: "sntryu_nope" });
    expect(r.exitCode).toBe(12);
    expect(r.stderr).toContain("Invalid token");
    expect(r.stderr).not.toContain("sntryu_nope");
  });
});

describe("org view", () => {
  test("human output from the org's region", async () => {
    const r = await runCli(["org", "view", "globex"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "Globex Corporation (globex)",
        "ID:       100002",
        "Status:   active",
        "Created:  2021-03-02T09:30:00.000000Z",
        `Region:   ${api.urls.de}`,
        "URL:      https://globex.sentry.io",
        "",
      ].join("\n"),
    );
  });

  test("a pasted URL with surrounding whitespace is accepted", async () => {
    const r = await runCli(["org", "view", "  https://acme.sentry.io/issues/\n", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).slug).toBe("acme");
  });

  test("wrong case: ResolutionError with did-you-mean, exit 23", async () => {
    const r = await runCli(["org", "view", "Globex"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Organization 'Globex' was not found.\n\nDid you mean globex? Slugs are case-sensitive.\n",
    );
  });

  test("unknown org: hint to run org list", async () => {
    const r = await runCli(["org", "view", "nobody"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Organization 'nobody' was not found.\n\nRun `tracker org list` to see the organizations this token can access.\n",
    );
  });
});

describe("org list resilience", () => {
  test("a failing region is skipped with a warning; the others still show", async () => {
    api.inject({ host: "de", path: "/api/0/organizations/", status: 403, body: { detail: "nope" } });
    const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { slug: string }[]).map((o) => o.slug)).toEqual(["acme", "initech"]);
    expect(r.stderr).toStartWith("Warning: A region could not be listed: Request failed with status 403");
  });
});

describe("org list region discovery by token kind", () => {
  test("an org auth token skips /users/me/regions/ and asks the region named in its claim", async () => {
    const token = mintOrgToken(api.state, "globex", ["org:read"]);
    const r = await runCli(["org", "list", "--json"], { api, token });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { slug: string }[]).map((o) => o.slug)).toEqual(["globex"]);
    expect(api.requestsTo("/api/0/users/me/regions/")).toHaveLength(0);
    expect(api.requestsTo("/api/0/organizations/").map((q) => q.host)).toEqual(["de"]);
  });

  test("a 403 from region discovery is surfaced, not silently replaced by the base URL", async () => {
    api.inject({
      path: "/api/0/users/me/regions/",
      status: 403,
      body: { detail: "You do not have permission to perform this action." },
    });
    const r = await runCli(["org", "list"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toStartWith("Error: Request failed with status 403");
    expect(api.requestsTo("/api/0/organizations/")).toHaveLength(0);
  });
});
