/**
 * The fake server's "now". Tests use a fixed instant (it matches the test context's clock, so every
 * seeded timestamp is deterministic); `bun run sandbox` sets FAKE_API_NOW=now before loading the
 * server so its demo data sits relative to the current time.
 */
export const TEST_NOW_MS = Date.parse("2026-01-15T12:00:00Z");

function fakeNow(raw: string | undefined): number {
  // Whole minutes, so seeded offsets stay readable.
  if (raw === "now") return Math.floor(Date.now() / 60_000) * 60_000;
  return TEST_NOW_MS;
}

/** The instant seeds and `statsPeriod` windows are measured from. */
export const FAKE_NOW_MS = fakeNow(process.env.FAKE_API_NOW);
