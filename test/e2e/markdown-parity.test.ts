/**
 * `--format md` carries the facts of the text view: for each view, every cell of the piped text
 * rows (times aside, which each form writes in its own precision) appears in the markdown.
 */
import { expect, test } from "bun:test";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const VIEWS: [string, string[], (cells: string[]) => boolean][] = [
  ["issue tags", ["issue", "tags", "acme/WEB-4Y"], () => true],
  ["monitor list", ["monitor", "list", "acme"], () => true],
  ["log list", ["log", "list", "acme/web", "-n", "10"], () => true],
  // The logs of the trace (the tree above them is compared by the trace tests).
  ["trace view --logs", ["trace", "view", TRACE_NESTED, "acme", "--logs"], (cells) => cells.length === 5],
  ["status", ["status", "acme"], () => true],
];

/** The real app, piped, at the fake data's time (status looks back from now). */
function run(args: string[], configDir: string) {
  return runInProcess(args, {
    env: {
      PATH: process.env.PATH ?? "",
      TRACKER_CONFIG_DIR: configDir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
    },
    cwd: configDir,
    now: () => FAKE_NOW_MS,
  });
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
const isTime = (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s);

test.each(VIEWS)("%s: every fact of the text rows is in the markdown", async (_name, args, isRow) => {
  const configDir = tempDir();
  const text = await run(args, configDir);
  const md = await run([...args, "--format", "md"], configDir);
  expect(text.exitCode).toBe(0);
  expect(md.exitCode).toBe(0);
  const rows = text.stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((cells) => cells.length > 1 && isRow(cells));
  expect(rows.length).toBeGreaterThan(1);
  const page = norm(md.stdout);
  const missing = rows.flatMap((cells) =>
    cells.filter((c) => c !== "" && c !== "-" && !isTime(c)).filter((c) => !page.includes(norm(c))),
  );
  expect(missing).toEqual([]);
});
