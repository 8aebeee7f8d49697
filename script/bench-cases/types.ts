/** What a case should stay under (reported by the bench, never asserted in tests). */
export interface BenchTarget {
  /** Median whole-process time. */
  p50Ms?: number;
  /** Median of (whole-process time − time the fake API spent answering), per run. */
  clientMs?: number;
  /** Peak resident memory. */
  rssMiB?: number;
}

/** One benchmarked command. `script/bench.ts` loads every `cases` export of this folder. */
export interface BenchCase {
  name: string;
  args: string[];
  /** Start the fake API and point TRACKER_URL at it (with a valid TRACKER_AUTH_TOKEN). */
  needsApi?: boolean;
  env?: Record<string, string>;
  /** Fed to the command's stdin (then closed), e.g. an MCP session. */
  stdin?: string;
  target?: BenchTarget;
  /** Prepares a working directory or config dir before the timed runs (not timed). */
  setup?: (ctx: {
    apiUrl: string | undefined;
    configDir: string;
    cwd: string;
  }) => Promise<{ cwd?: string; env?: Record<string, string> } | undefined>;
}
