/** `feedback list|view|resolve|unresolve|spam` and `replay list|view` against the fake (API.md §22.8, §22.9). */
import { beforeAll, describe, expect, test } from "bun:test";
import { FEEDBACK_REPLAY_ID, seedFeedback } from "../fake-api/routes/feedback.ts";
import type { FakeIssue } from "../fake-api/routes/issues.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { seedReplays } from "../fake-api/routes/replays.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], configDir?: string) => runCli(args, { api, token: USER_TOKEN, configDir });
let feedback: FakeIssue[] = [];
beforeAll(() => {
  feedback = seedFeedback(api.state);
  seedReplays(api.state);
});
const at = (i: number) => (feedback[i] as FakeIssue).shortId;

describe("feedback", () => {
  test("list: the inbox of the project, newest first, through the issue search's feedback category", async () => {
    const r = await run(["feedback", "list", "acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.hasMore).toBe(false);
    expect(doc.data.map((f: { shortId: string; email: string | null }) => [f.shortId, f.email])).toEqual([
      [at(0), "ana@example.org"],
      [at(1), "sam@example.org"],
    ]);
    const search = api.requestsTo("/api/0/organizations/acme/issues/")[0];
    expect(search?.query.get("query")).toBe("issue.category:feedback status:unresolved");
    expect(search?.query.get("project")).toBe("300001");
    expect(search?.query.get("statsPeriod")).toBe("14d");
  });

  test("list --status spam asks for ignored feedback; piped rows are one line each", async () => {
    const r = await run(["feedback", "list", "acme/web", "--status", "spam"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\t").slice(1)).toEqual([at(2), "spam", "spam", "BUY CHEAP WATCHES\n"]);
    expect(api.requestsTo("/api/0/organizations/acme/issues/")[0]?.query.get("query")).toBe(
      "issue.category:feedback status:ignored",
    );
  });

  test("view: who, the page, the replay (with the command to open it) and the error event, then the message", async () => {
    const r = await run(["feedback", "view", `acme/${at(0)}`]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("  From:     Ana Lima <ana@example.org>\n");
    expect(r.stdout).toContain("  Page:     https://shop.example.com/checkout\n");
    expect(r.stdout).toContain(
      `  Replay:   ${FEEDBACK_REPLAY_ID} (tracker replay view ${FEEDBACK_REPLAY_ID} acme/web)\n`,
    );
    expect(r.stdout).toContain(`  Error:    ${"a".repeat(32)}\n`);
    expect(
      r.stdout.endsWith("  The checkout button does nothing after I add a coupon.\n  Tried twice.\n"),
    ).toBe(true);
    const json = JSON.parse((await run(["feedback", "view", `acme/${at(1)}`, "--json"])).stdout);
    expect(json).toMatchObject({
      shortId: at(1),
      replayId: null,
      url: "https://shop.example.com/",
      status: "unresolved",
    });
  });

  test("resolve, spam and unresolve: one PUT each with the status (spam = ignored forever)", async () => {
    const dir = tempDir("tracker-cfg-");
    expect((await run(["feedback", "resolve", `acme/${at(1)}`], dir)).stdout).toBe(`${at(1)} resolved\n`);
    expect(findIssue(api.state, (feedback[1] as FakeIssue).id)?.status).toBe("resolved");
    expect((await run(["feedback", "spam", `acme/${at(1)}`], dir)).stdout).toBe(`${at(1)} marked as spam\n`);
    expect(findIssue(api.state, (feedback[1] as FakeIssue).id)?.substatus).toBe("archived_forever");
    expect((await run(["feedback", "unresolve", `acme/${at(1)}`], dir)).stdout).toBe(
      `${at(1)} moved back to the inbox\n`,
    );
    const bodies = api.requests.filter((q) => q.method === "PUT").map((q) => JSON.parse(q.body));
    expect(bodies).toEqual([
      { status: "resolved" },
      { status: "ignored", substatus: "archived_forever" },
      { status: "unresolved" },
    ]);
    expect(findIssue(api.state, (feedback[1] as FakeIssue).id)?.status).toBe("unresolved");
  });

  test("resolve --dry-run sends nothing", async () => {
    const r = await run(["feedback", "resolve", `acme/${at(0)}`, "--dry-run"]);
    expect(r.stdout).toBe(`${at(0)} would be resolved\n`);
    expect(api.requests.filter((q) => q.method === "PUT")).toEqual([]);
  });
});

describe("replay", () => {
  test("list: every field asked for explicitly, the project's id, newest first; --json rows", async () => {
    const r = await run(["replay", "list", "acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data.map((x: { id: string }) => x.id)).toEqual([
      FEEDBACK_REPLAY_ID,
      "4d6f2b8c0e3a5f7b9c1d3e5f7a9b1c3d",
    ]);
    expect(doc.data[0]).toEqual({
      id: FEEDBACK_REPLAY_ID,
      projectId: "300001",
      user: "Ana Lima",
      startedAt: "2026-01-15T11:39:00.000Z",
      finishedAt: "2026-01-15T11:40:35.000Z",
      duration: 95,
      url: "https://shop.example.com/",
      urls: 2,
      errors: 1,
      rageClicks: 2,
      environment: "production",
      browser: "Chrome 131.0",
      os: "macOS 15.1",
    });
    const q = api.requestsTo("/api/0/organizations/acme/replays/")[0]?.query;
    expect(q?.getAll("field")).toContain("count_errors");
    expect([q?.get("project"), q?.get("sort"), q?.get("statsPeriod"), q?.get("per_page")]).toEqual([
      "300001",
      "-started_at",
      "7d",
      "25",
    ]);
  });

  test("list -q count_errors:>0 -t 30d: the query goes to the service as is", async () => {
    const r = await run(["replay", "list", "acme/web", "-q", "count_errors:>0", "-t", "30d"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n").map((l) => l.split("\t")[1])).toEqual([
      FEEDBACK_REPLAY_ID,
      "5e7a3c9d1f4b6a8c0d2e4f6a8b0c2d4e",
      undefined,
    ]);
  });

  test("view: the replay and its breadcrumbs in one round trip; the activity in time order", async () => {
    const r = await run(["replay", "view", FEEDBACK_REPLAY_ID, "acme/web"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.slice(r.stdout.indexOf("Activity"))).toBe(
      [
        "Activity",
        "  11:39:00  navigation    /checkout",
        "  11:39:12  ui.click      button#apply-coupon",
        "  11:39:14  console       TypeError: items is undefined",
        "  11:39:20  ui.click      button.checkout",
        "  11:39:31  sentry.feedback  User submitted feedback",
        "",
      ].join("\n"),
    );
    // Besides the organization's region lookup of a cold config dir (rounds: round-trips.test.ts).
    const replayCalls = api.requests.filter((q) => q.path.includes("/replays/"));
    expect(replayCalls.map((q) => q.path).sort()).toEqual([
      `/api/0/projects/acme/web/replays/${FEEDBACK_REPLAY_ID}/`,
      `/api/0/projects/acme/web/replays/${FEEDBACK_REPLAY_ID}/recording-segments/`,
    ]);
  });

  test("view --json for agents: urls, error and trace ids, breadcrumbs", async () => {
    const doc = JSON.parse((await run(["replay", "view", FEEDBACK_REPLAY_ID, "acme/web", "--json"])).stdout);
    expect(doc.allUrls).toEqual(["https://shop.example.com/", "https://shop.example.com/checkout"]);
    expect(doc.errorIds).toEqual(["a".repeat(32)]);
    expect(doc.breadcrumbs[2]).toEqual({
      timestamp: "2026-01-15T11:39:14.000Z",
      category: "console",
      level: "info",
      message: "TypeError: items is undefined",
    });
  });

  test("view of a malformed id: a validation error before any request", async () => {
    const r = await run(["replay", "view", "not-a-replay", "acme/web"]);
    expect(r).toEqual({
      exitCode: 21,
      stdout: "",
      stderr:
        "Error: Invalid replay ID 'not-a-replay': expected 32 hexadecimal characters (dashes of the UUID form allowed).\n",
    });
  });
});

describe("-c last continues the previous page (never sent as a cursor)", () => {
  test.each([
    ["feedback", "/api/0/organizations/acme/issues/"],
    ["replay", "/api/0/organizations/acme/replays/"],
  ])("%s list", async (noun, path) => {
    const configDir = tempDir();
    const first = await run([noun, "list", "acme/web", "-n", "1", "--json"], configDir);
    expect(first.exitCode).toBe(0);
    const next = JSON.parse(first.stdout).nextCursor as string;
    expect(next).toBeString();
    api.reset();
    const second = await run([noun, "list", "acme/web", "-n", "1", "-c", "last", "--json"], configDir);
    expect(second.exitCode).toBe(0);
    expect(api.requestsTo(path)[0]?.query.get("cursor")).toBe(next);
  });
});

describe("the next-page hint repeats the listing's filters and continues with -c last", () => {
  test.each([
    ["feedback", ["--status", "all", "-t", "30d"], "/api/0/organizations/acme/issues/"],
    ["replay", ["-t", "30d"], "/api/0/organizations/acme/replays/"],
  ])("%s list", async (noun, filters, path) => {
    const configDir = tempDir();
    const first = await run([noun, "list", "acme/web", ...filters, "-n", "1"], configDir);
    expect(first.exitCode).toBe(0);
    const hint = `More: tracker ${noun} list acme/web ${filters.join(" ")} -n 1 -c last`;
    expect(first.stderr).toContain(`${hint}\n`);
    const asked = api.requestsTo(path)[0]?.query;
    api.reset();
    const again = await run(hint.slice("More: tracker ".length).split(" "), configDir);
    expect(again.exitCode).toBe(0);
    const next = api.requestsTo(path)[0]?.query;
    expect(next?.get("cursor")).toBeString();
    expect(next?.get("query")).toBe(asked?.get("query") ?? null);
    expect(next?.get("statsPeriod")).toBe("30d");
    expect(again.stdout).not.toBe(first.stdout);
  });
});
