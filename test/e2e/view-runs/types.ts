import type { FakeState } from "../../fake-api/types.ts";

/** What a run's setup gets: the fake's state (to seed data) and the run's config dir. */
export interface RunSetup {
  state: FakeState;
  configDir: string;
}

/** One run per view for the parity test (test/e2e/view-parity.test.ts). */
export interface ViewRun {
  /** The command line, without output flags (the test adds `--format md`). */
  args: string[];
  /** Ask with this clock (ms) when the fake data is relative to a fixed time (status, logs). */
  now?: number;
  /** Text lines whose cells the test compares (default: every line); e.g. the logs under a trace tree. */
  rows?: (cells: string[]) => boolean;
  /**
   * Before the runs: seed the data the view needs (feedback, replays), or write files. It may
   * return the command line to use instead of `args` (one naming what it seeded).
   */
  setup?: (s: RunSetup) => undefined | { args: string[] } | Promise<undefined | { args: string[] }>;
}
