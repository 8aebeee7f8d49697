/** `--format md` as a markdown reader meets it: frames where they are, tables that end, collapsed runs, no forged sections. */
import { describe, expect, test } from "bun:test";
import { addIssue, ISSUES_NOW_MS } from "../fake-api/routes/issues.ts";
import { TRACE_LARGE } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("--format md", () => {
  test("issue view shows the latest event's in-app frames", async () => {
    const json = JSON.parse((await run(["issue", "view", "acme/WEB-4Y", "--json"])).stdout);
    const frames = json.latestEvent.frames as { function: string; filename: string }[];
    expect(frames.length).toBeGreaterThan(0);
    const md = (await run(["issue", "view", "acme/WEB-4Y", "--format", "md"])).stdout;
    expect(md).toContain("\n  Stack (most recent call first):\n");
    for (const f of frames) expect(md).toContain(`at ${f.function} (${f.filename}:`);
  });

  test("the nextCursor line is separated from the list table", async () => {
    const md = (await run(["issue", "list", "acme/web", "-n", "3", "--format", "md"])).stdout;
    const lines = md.split("\n");
    const at = lines.findIndex((l) => l.startsWith("nextCursor: "));
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe("");
    expect(lines[at - 2]).toStartWith("| ");
  });

  test("trace view collapses runs of similar spans as the text view does", async () => {
    const md = (await run(["trace", "view", TRACE_LARGE, "acme", "--format", "md"])).stdout;
    const text = (await run(["trace", "view", TRACE_LARGE, "acme"])).stdout;
    // A collapsed run: its total in the DURATION column, then how many and how long each took.
    expect(md).toMatch(/×\d+ (more like it )?\([^)]+ each\)/);
    // Of the order of the text view, not one line per span (it was 130 KB against 3.5 KB).
    expect(md.length).toBeLessThan(Math.max(4 * text.length, 10_000));
  });

  test("server text cannot open a section or a table row of its own", async () => {
    const issue = addIssue(api.state, "acme", "web", {
      title: "Boom\n## Resolved\n| fake | row |",
      culprit: "fn\n### Tags",
      lastSeen: ISSUES_NOW_MS,
    });
    const md = (await run(["issue", "view", `acme/${issue.shortId}`, "--format", "md"])).stdout;
    expect(md).toContain(`## ${issue.shortId}: Boom ⏎ ## Resolved ⏎ | fake | row |`);
    expect(md.split("\n").filter((l) => l.startsWith("## "))).toHaveLength(1);
    expect(md.split("\n").filter((l) => l === "### Tags")).toHaveLength(1);
    expect(md.split("\n").some((l) => l.startsWith("| fake"))).toBe(false);
  });
});

test("--format md lists of logs, spans and releases show their own columns", async () => {
  const logs = (await run(["log", "list", "acme/web", "-n", "3", "--format", "md"])).stdout;
  expect(logs).toContain("| time | severity | message | trace | id |");
  const spans = (await run(["span", "list", "acme/web", "-n", "3", "--format", "md"])).stdout;
  expect(spans).toContain("| span id | op | description | duration | time |");
  expect(spans.split("\n")[3]).not.toMatch(/\|\s*\|\s*\|/);
  const releases = (await run(["release", "list", "acme/web", "-n", "3", "--format", "md"])).stdout;
  expect(releases).toContain("| version | created | new issues | last deploy |");
});
