/** `issue view` during an incident: first release and deploys, suspect commits, links, notes; several issues (API.md §22.7, §22.11). */
import { describe, expect, test } from "bun:test";
import { seedIncident } from "../fake-api/routes/incidents.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("issue view: what happened around the issue", () => {
  test("human: the first release's deploys and the gap to the first event, suspects with PR links, tickets, notes", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const r = await run(["issue", "view", "acme/WEB-4Y"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const tail = r.stdout.slice(r.stdout.indexOf("First release"));
    expect(tail.replace(/ \(\d+\w+ ago\)/g, "")).toBe(
      [
        "First release web@1.5.0",
        "  Deployed:    production 2026-01-13T12:00:00Z",
        "  Deployed:    staging 2026-01-12T14:00:00Z",
        "  First event: 47m 00s after the production deploy",
        "",
        "Suspect commits",
        "  c3d4e5f60718  Jane Doe: Lazy-load the cart items  https://github.com/acme/web/pull/88",
        "  d4e5f6071829  Bob Stone: Rename items to lines",
        "",
        "Linked tickets",
        "  acme/web#321 Checkout crashes  https://github.com/acme/web/issues/321 (GitHub, link 55000)",
        "",
        "Latest notes",
        "  2026-01-14T21:20:00Z  Jane Doe: Rolled back the checkout flag; watching.",
        "",
      ].join("\n"),
    );
  });

  test("--json: suspectCommits, firstRelease with firstEventAfter, links and notes", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const doc = JSON.parse((await run(["issue", "view", "acme/WEB-4Y", "--json"])).stdout);
    expect(doc.firstRelease).toEqual({
      version: "web@1.5.0",
      deploys: [
        { environment: "production", dateFinished: "2026-01-13T12:00:00.000Z" },
        { environment: "staging", dateFinished: "2026-01-12T14:00:00.000Z" },
      ],
      firstEventAfter: { environment: "production", ms: 47 * 60_000 },
    });
    expect(doc.suspectCommits[0]).toEqual({
      author: "Jane Doe",
      commit: "c3d4e5f60718293a4b5c6d7e8f90123456789012",
      message: "Lazy-load the cart items",
      repository: "acme/web",
      date: expect.any(String),
      pullRequest: { title: "Lazy cart", url: "https://github.com/acme/web/pull/88" },
    });
    expect(doc.links).toEqual([
      {
        id: "55000",
        key: "acme/web#321",
        url: "https://github.com/acme/web/issues/321",
        title: "Checkout crashes",
        integrationId: "9001",
        provider: "GitHub",
      },
    ]);
    expect(doc.notes.map((n: { summary: string }) => n.summary)).toEqual([
      "note: Rolled back the checkout flag; watching.",
    ]);
  });

  test("an issue with nothing around it: empty sections, no error (the committers' 404 is no suspects)", async () => {
    const r = await run(["issue", "view", "acme/WEB-52", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect([doc.suspectCommits, doc.firstRelease, doc.links, doc.notes]).toEqual([[], null, [], []]);
    expect(api.requestsTo(/\/committers\/$/).map((q) => q.status)).toEqual([404]);
  });
});

describe("issue view A B C", () => {
  test("several issues: in the given order; --json an array", async () => {
    const r = await run(["issue", "view", "acme/WEB-52", "acme/WEB-4Y", "acme/API-1", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((i: { shortId: string }) => i.shortId)).toEqual([
      "WEB-52",
      "WEB-4Y",
      "API-1",
    ]);
    const human = await run(["issue", "view", "acme/WEB-52", "acme/API-1"]);
    expect(human.stdout.indexOf("WEB-52:")).toBe(0);
    expect(human.stdout).toContain(`\n${"─".repeat(40)}\n\nAPI-1: `);
  });

  test("one of them missing: the others are printed, then the error and its exit code", async () => {
    const r = await run(["issue", "view", "acme/WEB-52", "acme/WEB-ZZZZ", "--json"]);
    expect(r.exitCode).toBe(23);
    expect(JSON.parse(r.stdout).map((i: { shortId: string }) => i.shortId)).toEqual(["WEB-52"]);
    expect(r.stderr).toContain("WEB-ZZZZ");
  });

  test("--web with several issues is refused", async () => {
    const r = await run(["issue", "view", "acme/WEB-52", "acme/API-1", "--web"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe("Error: --web opens one issue; name only one.\n");
  });
});

describe("issue view --format md", () => {
  test("the first release, suspects, tickets and notes as markdown sections for agents", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    const r = await run(["issue", "view", "acme/WEB-4Y", "--format", "md"]);
    expect(r.exitCode).toBe(0);
    const md = r.stdout.replace(/ \(\d+\w+ ago\)/g, "");
    expect(md).toContain(
      "### First release web@1.5.0\n  Deployed:    production 2026-01-13T12:00:00Z\n  Deployed:    staging 2026-01-12T14:00:00Z\n  First event: 47m 00s after the production deploy\n",
    );
    expect(md).toContain(
      "### Suspect commits\n  c3d4e5f60718  Jane Doe: Lazy-load the cart items  https://github.com/acme/web/pull/88\n",
    );
    expect(md).toContain(
      "### Linked tickets\n  acme/web#321 Checkout crashes  https://github.com/acme/web/issues/321 (GitHub, link 55000)\n",
    );
    expect(md).toContain(
      "### Latest notes\n  2026-01-14T21:20:00Z  Jane Doe: Rolled back the checkout flag; watching.",
    );
  });
});

test("issue view A B where neither exists: the first error alone, nothing on stdout", async () => {
  const r = await run(["issue", "view", "acme/WEB-ZZZZ", "acme/WEB-YYYY", "--json"]);
  expect(r.exitCode).toBe(23);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("WEB-ZZZZ");
});
