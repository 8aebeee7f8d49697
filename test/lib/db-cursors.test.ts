import { expect, test } from "bun:test";
import {
  CURSOR_REFRESH_MS,
  CURSOR_TTL_MS,
  cursorKey,
  loadCursor,
  resolveCursor,
  saveCursor,
} from "../../src/lib/db/cursors.ts";
import { createTestContext } from "../helpers/context.ts";

const KEY = cursorKey("issue-list", "acme/web", { sort: "date", query: undefined, period: "90d" });

function savedAt(t: ReturnType<typeof createTestContext>): number | undefined {
  const row = t.ctx.store.open().query("SELECT updated_at FROM cursors WHERE key = ?").get(KEY) as {
    updated_at: number;
  } | null;
  return row?.updated_at;
}

test("the key separates command, target and every result-changing flag", () => {
  expect(KEY).toBe("issue-list|acme/web|period=90d&query=&sort=date");
  expect(cursorKey("issue-list", "acme/web", { sort: "freq", period: "90d", query: undefined })).not.toBe(
    KEY,
  );
});

test("a saved cursor continues with -c last until the TTL passes", () => {
  const t = createTestContext();
  saveCursor(t.ctx, KEY, "0:100:0");
  expect(resolveCursor(t.ctx, KEY, "last")).toBe("0:100:0");
  t.advance(CURSOR_TTL_MS);
  expect(loadCursor(t.ctx, KEY)).toBeUndefined();
  expect(() => resolveCursor(t.ctx, KEY, "last")).toThrow(/No saved position/);
});

test("an unchanged cursor is not rewritten within the refresh window, and is after it", () => {
  const t = createTestContext();
  saveCursor(t.ctx, KEY, "0:100:0");
  const first = savedAt(t);
  t.advance(CURSOR_REFRESH_MS - 1);
  saveCursor(t.ctx, KEY, "0:100:0");
  expect(savedAt(t)).toBe(first);
  t.advance(1);
  saveCursor(t.ctx, KEY, "0:100:0");
  expect(savedAt(t)).toBe((first as number) + CURSOR_REFRESH_MS);
});

test("a changed cursor, or reaching the end, is always written", () => {
  const t = createTestContext();
  saveCursor(t.ctx, KEY, "0:100:0");
  t.advance(1000);
  saveCursor(t.ctx, KEY, "0:200:0");
  expect(loadCursor(t.ctx, KEY)).toBe("0:200:0");
  t.advance(1000);
  saveCursor(t.ctx, KEY, undefined);
  expect(loadCursor(t.ctx, KEY)).toBeUndefined();
  expect(savedAt(t)).toBe(Date.parse("2026-01-15T12:00:00Z") + 2000);
});

test("a damaged or future-dated row is overwritten instead of trusted", () => {
  const t = createTestContext();
  const db = t.ctx.store.open();
  db.run("INSERT INTO cursors (key, cursor, updated_at) VALUES (?, ?, ?)", [KEY, "0:100:0", "soon"]);
  saveCursor(t.ctx, KEY, "0:100:0");
  expect(savedAt(t)).toBe(t.ctx.now());
  db.run("UPDATE cursors SET updated_at = ? WHERE key = ?", [t.ctx.now() + 10_000, KEY]);
  saveCursor(t.ctx, KEY, "0:100:0");
  expect(savedAt(t)).toBe(t.ctx.now());
});
