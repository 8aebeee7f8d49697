/**
 * Paging never skips: every list command walked to its end under a small --max-chars (and as
 * markdown) sees exactly the rows of one unbounded listing, in the same order. The printed
 * nextCursor continues right after the last row shown, not after the whole page.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

interface Listing {
  name: string;
  args: string[];
  key: (row: Record<string, unknown>) => unknown;
}

const LISTINGS: Listing[] = [
  { name: "issue list", args: ["issue", "list", "acme/web"], key: (r) => r.id },
  { name: "issue events", args: ["issue", "events", "acme/WEB-4Y"], key: (r) => r.eventID },
  { name: "log list", args: ["log", "list", "acme/web"], key: (r) => r.id },
  { name: "span list", args: ["span", "list", "acme/web"], key: (r) => r.id },
  { name: "trace list", args: ["trace", "list", "acme/web"], key: (r) => r.traceId },
  { name: "release list", args: ["release", "list", "acme/"], key: (r) => r.version },
];

async function json(args: string[], configDir: string): Promise<Record<string, unknown>> {
  const r = await runCli(args, { api, token: USER_TOKEN, configDir });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout);
}

describe.each(LISTINGS)("$name", ({ args, key }) => {
  test("walked under --max-chars to the end, it shows every row of the unbounded listing once", async () => {
    const configDir = tempDir();
    const full = (
      (await json([...args, "-n", "40", "--json"], configDir)).data as Record<string, unknown>[]
    ).map(key);
    // A bound that always fits a row or two but never a page of 10: each page is shown in part.
    expect(full.length).toBeGreaterThan(5);
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let cut = 0;
    for (let pages = 0; pages < 200; pages++) {
      const doc = await json(
        [...args, "-n", "10", "--max-chars", "1600", "--json", ...(cursor ? ["-c", cursor] : [])],
        configDir,
      );
      const rows = doc.data as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(0);
      if (rows.length < Math.min(10, full.length - seen.length)) cut++;
      seen.push(...rows.map(key));
      if (!doc.hasMore || seen.length >= full.length) break;
      expect(Object.keys(doc).at(-1)).toBe("nextCursor");
      cursor = doc.nextCursor as string;
    }
    expect(cut).toBeGreaterThan(0);
    expect(seen.slice(0, full.length)).toEqual(full);
  });
});

test("-c last after a listing shown in part continues after the last row shown", async () => {
  const configDir = tempDir();
  const base = ["issue", "list", "acme/web", "-n", "10", "--json"];
  const full = (await json([...base.slice(0, 3), "-n", "20", "--json"], configDir)).data as { id: string }[];
  const first = (await json([...base, "--max-chars", "1600"], configDir)).data as { id: string }[];
  expect(first.length).toBeLessThan(10);
  const next = (await json([...base, "-c", "last"], configDir)).data as { id: string }[];
  expect(next.map((i) => i.id)).toEqual(full.slice(first.length, first.length + 10).map((i) => i.id));
});

test("--format md under a bound names the cursor after the last row it shows", async () => {
  const configDir = tempDir();
  const full = (await json(["log", "list", "acme/web", "-n", "10", "--json"], configDir)).data as {
    id: string;
  }[];
  const r = await runCli(["log", "list", "acme/web", "-n", "10", "--format", "md", "--max-chars", "900"], {
    api,
    token: USER_TOKEN,
    configDir,
  });
  expect(r.exitCode).toBe(0);
  const shown = full.filter((l) => r.stdout.includes(l.id.slice(0, 8))).length;
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(10);
  const cursor = /nextCursor: (\S+)/.exec(r.stdout)?.[1] as string;
  expect(cursor).toBe(`@${shown}`);
  const rest = (await json(["log", "list", "acme/web", "-n", "10", "-c", cursor, "--json"], configDir))
    .data as {
    id: string;
  }[];
  expect(rest[0]?.id).toBe(full[shown]?.id);
});

test("one next-page hint: every word quoted once, the target and -c last (lib/list-page.ts)", async () => {
  const { nextPageCommand } = await import("../../src/lib/list-page.ts");
  expect(
    nextPageCommand("tracker log list", "acme/web", ["-s", "oldest", "-t", ">=2026-01-15", "-q", "a b"]),
  ).toBe("tracker log list acme/web -s oldest -t '>=2026-01-15' -q 'a b' -c last");
  // Several detected projects have no one-word target: the next run detects them again.
  expect(nextPageCommand("tracker span list", "acme/web, acme/api", [])).toBe("tracker span list -c last");
  expect(nextPageCommand("tracker issue events", "acme/WEB-1", ["-q", "$(touch x)"])).toBe(
    "tracker issue events acme/WEB-1 -q '$(touch x)' -c last",
  );
});
