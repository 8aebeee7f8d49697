/** One run per view for the parity test (test/e2e/view-parity.test.ts). */
export interface ViewRun {
  /** The command line, without output flags (the test adds `--format md`). */
  args: string[];
  /** Ask with this clock (ms) when the fake data is relative to a fixed time (status, logs). */
  now?: number;
  /** Text lines whose cells the test compares (default: every line); e.g. the logs under a trace tree. */
  rows?: (cells: string[]) => boolean;
  /** Prepares the run's config directory (its working directory too) before both runs: stored defaults, logins. */
  setup?: (configDir: string) => Promise<void> | void;
}
