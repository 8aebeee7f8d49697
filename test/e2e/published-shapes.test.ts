/**
 * Every command against the answers of Sentry's published API reference (test/fixtures/published,
 * taken verbatim from the examples of getsentry/sentry-api-schema, see its index.json, which also
 * names the endpoints the client calls that have no published example, and why). The fake
 * serves each example in place of its own answer, so a wrong belief about the wire shows here even
 * when the fake agrees with the client. Only URLs are rewritten: the examples name sentry.io hosts,
 * and a test talks to loopback only.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import type { Fault } from "../fake-api/types.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const DIR = join(import.meta.dir, "../fixtures/published");
const api = useFakeApi();

/** A published example, its sentry.io region URLs pointed at the fake's region listener. */
function example(name: string): unknown {
  const text = readFileSync(join(DIR, `${name}.json`), "utf8").replaceAll(
    "https://us.sentry.io",
    api.urls.us,
  );
  return JSON.parse(text);
}

/** Answers the matching request(s) with a published example instead of the fake's own answer. */
function serve(name: string, path: string | RegExp, extra: Partial<Fault> = {}): void {
  api.inject({ path, status: name === "autofix-start" ? 202 : 200, body: example(name), ...extra });
}

async function run(args: string[], env: Record<string, string> = {}) {
  const r = await runCli(args, { api, token: USER_TOKEN, env });
  // Whatever the answer, never a validation failure or a stack trace.
  expect(r.stderr).not.toContain("Unexpected response");
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return r;
}

describe("commands against the published examples", () => {
  test("org list: the organizations list", async () => {
    serve("organizations", "/api/0/organizations/", { times: Number.POSITIVE_INFINITY });
    const r = await run(["org", "list", "--json"]);
    expect(r.exitCode).toBe(0);
    const slugs = (JSON.parse(r.stdout) as { slug: string }[]).map((o) => o.slug);
    expect(slugs).toContain("the-interstellar-jurisdiction");
  });

  test("org view: one organization", async () => {
    serve("organization", "/api/0/organizations/acme/", { times: Number.POSITIVE_INFINITY });
    const r = await run(["org", "view", "acme", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ slug: "the-interstellar-jurisdiction" });
  });

  test("project list: an organization's projects", async () => {
    serve("organization-projects", "/api/0/organizations/acme/projects/");
    const r = await run(["project", "list", "acme", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('"slug":"prime-mover"');
  });

  test("project view: the project and its keys; the DSN comes from dsn.public", async () => {
    serve("project", "/api/0/projects/acme/web/");
    serve("project-keys", "/api/0/projects/acme/web/keys/");
    const r = await run(["project", "view", "acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      "https://a785682ddda742d7a8a4088810e67791@o4504765715316736.ingest.sentry.io/4505281256090153",
    );
  });

  test("project view: a key whose `public` is null (the schema allows it)", async () => {
    serve("project", "/api/0/projects/acme/web/");
    const keys = example("project-keys") as Record<string, unknown>[];
    api.inject({
      path: "/api/0/projects/acme/web/keys/",
      status: 200,
      body: keys.map((k) => ({ ...k, public: null, secret: null })),
    });
    const r = await run(["project", "view", "acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("@o4504765715316736.ingest.sentry.io/4505281256090153");
  });

  test("issue list: the organization's issue search", async () => {
    serve("organization-issues", "/api/0/organizations/acme/issues/");
    const r = await run(["issue", "list", "acme/", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { data: { shortId: string; count: number; culprit: string }[] };
    expect(doc.data[0]).toMatchObject({
      shortId: "PUMP-STATION-1",
      count: 150,
      culprit: "raven.scripts.runner in main",
    });
  });

  test("issue view: the short-id lookup (with its embedded issue) and the latest event, in the answer's organization", async () => {
    const ORG = "/api/0/organizations/the-interstellar-jurisdiction";
    // The region of the organization the lookup named (both runs), then that organization's latest event.
    serve("organization", `${ORG}/`, { times: Number.POSITIVE_INFINITY });
    const answers = () => {
      serve("shortid", "/api/0/organizations/acme/shortids/PUMP-STATION-1/");
      serve("issue-event", `${ORG}/issues/1/events/latest/`);
    };
    answers();
    const r = await run(["issue", "view", "acme/PUMP-STATION-1", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { shortId: string; count: number; project: { slug: string } };
    expect([doc.shortId, doc.count, doc.project.slug]).toEqual(["PUMP-STATION-1", 1, "pump-station"]);
    expect(r.stdout).toContain("ignoreOnError");
    answers();
    const human = await run(["issue", "view", "acme/PUMP-STATION-1"]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain("PUMP-STATION-1");
    expect(human.stdout).toContain("This is an example Python exception");
  });

  test("issue view: an event entry without a type is skipped", async () => {
    serve("issue", /^\/api\/0\/organizations\/acme\/issues\/1\/$/);
    const event = example("issue-event") as { entries: Record<string, unknown>[] };
    event.entries = [{ data: { note: "no type" } }, ...event.entries];
    api.inject({ path: "/api/0/organizations/acme/issues/1/events/latest/", status: 200, body: event });
    const r = await run(["issue", "view", "1", "--json"], { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(0);
  });

  test("issue events: an issue's events", async () => {
    serve("issue", /^\/api\/0\/organizations\/acme\/issues\/1\/$/, { times: Number.POSITIVE_INFINITY });
    serve("issue-events", "/api/0/organizations/acme/issues/1/events/");
    const r = await run(["issue", "events", "1", "--json"], { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain("9fac2ceed9344f2bbfdd1fdacb0ed9b1");
  });

  test("issue explain --force: the start's answer (run_id, sentry_run_id), then the published state", async () => {
    serve("issue", /^\/api\/0\/organizations\/acme\/issues\/1\/$/, { times: Number.POSITIVE_INFINITY });
    serve("autofix-start", "/api/0/organizations/acme/issues/1/autofix/", { method: "POST" });
    serve("autofix-state", "/api/0/organizations/acme/issues/1/autofix/", {
      method: "GET",
      times: Number.POSITIVE_INFINITY,
    });
    const r = await run(["issue", "explain", "1", "--force", "--json"], { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("run_ripgrep");
  });

  test("trace view: the published trace (a root span with only an event id)", async () => {
    const id = "a".repeat(32);
    serve("trace", `/api/0/organizations/acme/trace/${id}/`);
    const r = await run(["trace", "view", id, "acme", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      spanCount: number;
      errorCount: number;
      roots: { spanId: string }[];
    };
    expect([doc.spanCount, doc.errorCount]).toEqual([1, 0]);
    expect(doc.roots[0]?.spanId).toBe("0123456789abcdef0123456789abcdef");
  });

  test("issue resolve of several issues: the bulk update's answer", async () => {
    serve("issues-bulk-update", "/api/0/organizations/acme/issues/", { method: "PUT" });
    const r = await run(["issue", "resolve", "acme/WEB-1", "acme/WEB-2", "--json"]);
    expect(r.exitCode).toBe(0);
  });
});
