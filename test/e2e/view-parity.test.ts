/**
 * Markdown carries the facts of the text, for every view: the views are found in their one
 * description (each `ListView` and `DocView` exported from src/lib/format/), and each has a run in
 * test/e2e/view-runs/. Every cell of the piped text (split at tabs and at the gaps of aligned
 * columns) must appear in the `--format md` output of the same run.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import type { ViewRun } from "./view-runs/types.ts";

const api = useFakeApi();
const ROOT = join(import.meta.dir, "../..");

interface Found {
  name: string;
  partOf?: string;
}

/** Every view description exported by a module of src/lib/format/. */
async function views(): Promise<Found[]> {
  const dir = join(ROOT, "src/lib/format");
  const out: Found[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const mod = (await import(join(dir, file))) as Record<string, unknown>;
    for (const v of Object.values(mod)) {
      if (typeof v !== "object" || v === null) continue;
      const o = v as Record<string, unknown>;
      const isView =
        typeof o.name === "string" &&
        typeof o.id === "string" &&
        typeof o.document === "function" &&
        (typeof o.columns === "function" || typeof o.sections === "function");
      if (isView)
        out.push({ name: o.name as string, ...(typeof o.partOf === "string" ? { partOf: o.partOf } : {}) });
    }
  }
  return out;
}

async function runs(): Promise<Record<string, ViewRun>> {
  const dir = join(import.meta.dir, "view-runs");
  const all: Record<string, ViewRun> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "types.ts")) {
    const mod = (await import(join(dir, file))) as { RUNS: Record<string, ViewRun> };
    Object.assign(all, mod.RUNS);
  }
  return all;
}

const FOUND = await views();
const RUNS = await runs();

function run(r: ViewRun, extra: string[], configDir: string) {
  return runInProcess([...r.args, ...extra], {
    env: {
      PATH: process.env.PATH ?? "",
      TRACKER_CONFIG_DIR: configDir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
    },
    cwd: configDir,
    ...(r.now === undefined ? {} : { now: () => r.now as number }),
  });
}

const norm = (s: string) => s.replace(/\\\|/g, "|").replace(/\s+/g, " ").trim().toLowerCase();

test("every view has a parity run, and every run names a view", () => {
  const own = FOUND.filter((v) => v.partOf === undefined).map((v) => v.name);
  expect(own.length).toBeGreaterThan(1);
  expect(Object.keys(RUNS).sort()).toEqual([...new Set(own)].sort());
  for (const v of FOUND.filter((x) => x.partOf !== undefined)) expect(own).toContain(v.partOf as string);
});

describe("--format md carries every fact of the text", () => {
  test.each(Object.entries(RUNS))("%s", async (_name, r) => {
    const configDir = tempDir();
    await r.setup?.(configDir);
    const text = await run(r, [], configDir);
    const md = await run(r, ["--format", "md"], configDir);
    expect(text.exitCode).toBe(0);
    expect(md.exitCode).toBe(0);
    const rows = text.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split(/\t| {2,}/).map((c) => c.trim()))
      .filter((cells) => cells.some((c) => c !== "") && (r.rows?.(cells) ?? true));
    expect(rows.length).toBeGreaterThan(0);
    const page = norm(md.stdout);
    const missing = rows.flatMap((cells) =>
      cells.filter((c) => c !== "" && c !== "-" && !page.includes(norm(c))),
    );
    expect(missing).toEqual([]);
  });
});
