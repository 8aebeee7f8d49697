/** `issue activity`, `issue merge`, `issue link` / `unlink` against the fake (API.md §22.4–22.6). */
import { describe, expect, test } from "bun:test";
import { incidentStore, seedIncident } from "../fake-api/routes/incidents.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: { stdin?: string; configDir?: string } = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });
// The organization's region lookup of a cold config dir is not what these tests are about.
const sent = () =>
  api.requests
    .filter((r) => r.path !== "/api/0/organizations/acme/")
    .map((r) => `${r.method} ${r.path}${r.query.size ? `?${r.query}` : ""}${r.body ? ` ${r.body}` : ""}`);

describe("issue activity", () => {
  test("newest first: who and what, notes added through the CLI included; piped rows are TSV", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    expect((await run(["issue", "note", "acme/WEB-4Y", "Deploy 88 rolled back"])).exitCode).toBe(0);
    api.reset();
    const r = await run(["issue", "activity", "acme/WEB-4Y"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n").map((l) => l.split("\t").slice(1).join(" | "))).toEqual([
      "Jane Doe | note: Deploy 88 rolled back",
      "Jane Doe | note: Rolled back the checkout flag; watching.",
      "Sentry | regressed in web@1.5.0",
      "Bob Stone | resolved",
      "Bob Stone | linked acme/web#321 (GitHub)",
      "Jane Doe | assigned to Bob Stone",
      "Sentry | first seen",
      "",
    ]);
    expect(sent()).toEqual([
      "GET /api/0/organizations/acme/shortids/WEB-4Y/",
      "GET /api/0/organizations/acme/issues/4158/activities/",
    ]);
  });

  test("--json: the issue and one row per item; --format md a markdown table", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const r = await run(["issue", "activity", "acme/WEB-4Y", "--json"]);
    const doc = JSON.parse(r.stdout);
    expect(doc.issue).toBe("WEB-4Y");
    expect(doc.data.find((a: { id: string }) => a.id === "8006")).toEqual({
      dateCreated: expect.any(String),
      type: "note",
      user: "Jane Doe",
      summary: "note: Rolled back the checkout flag; watching.",
      id: "8006",
      data: { text: "Rolled back the checkout flag; watching." },
    });
    expect(doc.data.at(-1)).toMatchObject({ type: "first_seen", user: null, summary: "first seen" });
    const md = await run(["issue", "activity", "acme/WEB-4Y", "--format", "md"]);
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain("| When | Who | What |");
    expect(md.stdout).toContain("| Sentry | regressed in web@1.5.0 |");
  });

  test("an issue without activity: a tip on stderr, nothing on stdout", async () => {
    const r = await runCli(["issue", "activity", "acme/WEB-51"], {
      api,
      token: USER_TOKEN,
      terminal: { stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(r).toEqual({ exitCode: 0, stdout: "", stderr: "WEB-51 has no activity yet.\n" });
  });
});

describe("issue merge", () => {
  test("--dry-run prints the one request, --into first, and sends nothing", async () => {
    const r = await run([
      "issue",
      "merge",
      "acme/WEB-51",
      "acme/WEB-52",
      "--into",
      "acme/WEB-4Y",
      "--dry-run",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: true,
      requests: [
        {
          method: "PUT",
          path: "/api/0/organizations/acme/issues/?id=4158&id=4161&id=4162",
          body: { merge: true },
        },
      ],
    });
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });

  test("without a terminal, --yes is required; nothing is sent", async () => {
    const r = await run(["issue", "merge", "acme/WEB-51", "--into", "acme/WEB-4Y"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("Refusing to merge without confirmation: add --yes");
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });

  test("--yes: Sentry keeps the issue with the most events and the CLI says so when it is not --into", async () => {
    const a = findIssue(api.state, "4170");
    const b = findIssue(api.state, "4171");
    if (!a || !b) throw new Error("seed changed");
    a.count = 10;
    b.count = 9000;
    const r = await run([
      "issue",
      "merge",
      `acme/${b.shortId}`,
      "--into",
      `acme/${a.shortId}`,
      "--yes",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      into: a.shortId,
      parent: { id: "4171", shortId: b.shortId },
      children: [{ id: "4170", shortId: a.shortId }],
      dryRun: false,
    });
    expect(r.stderr).toBe(
      `Warning: --into ${a.shortId} was a preference: Sentry kept ${b.shortId} as the parent (it has the most events).\n`,
    );
    const put = api.requests.find((q) => q.method === "PUT");
    expect(put?.query.getAll("id")).toEqual(["4170", "4171"]);
    expect(JSON.parse(put?.body ?? "{}")).toEqual({ merge: true });
    expect(findIssue(api.state, "4170")).toBeUndefined();
  });

  test("issues of two projects: refused before any write", async () => {
    const r = await run(["issue", "merge", "acme/API-1", "--into", "acme/WEB-4Y", "--yes"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe("Error: Issues of different projects cannot be merged (acme/web, acme/api).\n");
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });
});

describe("issue link / unlink", () => {
  test("link: the org's only integration, the URL as externalIssue; unlink by URL sends the link id", async () => {
    const dir = tempDir("tracker-cfg-");
    const r = await run(["issue", "link", "acme/WEB-4Z", "https://github.com/acme/web/issues/400"], {
      configDir: dir,
    });
    expect(r).toEqual({
      exitCode: 0,
      stdout: "Linked acme/web#400 to WEB-4Z (GitHub, link 55001).\n",
      stderr: "",
    });
    expect(sent()).toEqual([
      "GET /api/0/organizations/acme/shortids/WEB-4Z/",
      "GET /api/0/organizations/acme/issues/4159/integrations/?per_page=100",
      'PUT /api/0/organizations/acme/issues/4159/integrations/9001/ {"externalIssue":"https://github.com/acme/web/issues/400"}',
    ]);
    api.reset();
    const u = await run(
      ["issue", "unlink", "acme/WEB-4Z", "https://github.com/acme/web/issues/400", "--json"],
      {
        configDir: dir,
      },
    );
    expect(u.exitCode).toBe(0);
    expect(JSON.parse(u.stdout).unlinked).toMatchObject({
      id: "55001",
      key: "acme/web#400",
      integrationId: "9001",
    });
    expect(sent()).toEqual([
      "GET /api/0/organizations/acme/issues/4159/",
      "GET /api/0/organizations/acme/issues/4159/integrations/?per_page=100",
      "DELETE /api/0/organizations/acme/issues/4159/integrations/9001/?externalIssue=55001",
    ]);
    expect(incidentStore(api.state).links.get("4159")).toEqual([]);
  });

  test("linking the same ticket twice: the service's 400 with its message", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const r = await run(["issue", "link", "acme/WEB-4Y", "https://github.com/acme/web/issues/321"]);
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("That issue is already linked");
  });

  test("unlink of a link the issue does not have: the links it has, nothing sent", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const r = await run(["issue", "unlink", "acme/WEB-4Y", "999"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe(
      "Error: WEB-4Y has no link '999' (its links: 55000 https://github.com/acme/web/issues/321).\n",
    );
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });

  test("an org without an issue tracker: a config error saying where to add one", async () => {
    const r = await run(["issue", "link", "globex/WEB-1", "https://github.com/globex/web/issues/1"]);
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toContain("The organization has no issue-tracker integration");
    expect(r.stderr).toContain("Suggestion: Install one");
  });
});

describe("issue timeline", () => {
  test("oldest first: releases and deploys from a day before the first event, then the issue's activity", async () => {
    seedIncident(api.state, "acme", "WEB-50");
    const r = await run(["issue", "timeline", "acme/WEB-50"]);
    expect(r.exitCode).toBe(0);
    expect(
      r.stdout
        .split("\n")
        .map((l) => l.split("\t").slice(0, 2).join(" ") + (l ? ` | ${l.split("\t")[3]}` : "")),
    ).toEqual([
      "2026-01-12T13:00:00Z release | release web@1.5.0 (the issue's first release)",
      "2026-01-12T14:00:00Z deploy | deploy of web@1.5.0 to staging",
      "2026-01-13T12:00:00Z deploy | deploy of web@1.5.0 to production",
      "2026-01-13T12:47:00Z first_seen | first event",
      "2026-01-13T14:00:00Z assigned | assigned to Bob Stone",
      "2026-01-13T14:10:00Z create_issue | linked acme/web#321 (GitHub)",
      "2026-01-13T22:00:00Z set_resolved | resolved",
      "2026-01-14T13:00:00Z set_regression | regressed in web@1.5.0",
      "2026-01-14T21:20:00Z note | note: Rolled back the checkout flag; watching.",
      "2026-01-15T11:30:00Z last_seen | latest event",
      "",
    ]);
  });

  test("--json: the window and the entries; --format md a table for agents", async () => {
    seedIncident(api.state, "acme", "WEB-50");
    const doc = JSON.parse((await run(["issue", "timeline", "acme/WEB-50", "--json"])).stdout);
    expect(doc).toMatchObject({
      issue: "WEB-50",
      project: "acme/web",
      window: { start: "2026-01-12T12:47:00.000Z", end: "2026-01-15T11:30:00.000Z" },
    });
    expect(doc.data[0]).toEqual({
      date: expect.any(String),
      kind: "release",
      summary: "release web@1.5.0 (the issue's first release)",
      user: null,
    });
    const md = await run(["issue", "timeline", "acme/WEB-50", "--format", "md"]);
    expect(md.stdout).toContain("| When | What | Who | Detail |");
  });
});
