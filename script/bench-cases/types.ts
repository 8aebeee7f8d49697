/** One benchmarked command. `script/bench.ts` loads every `cases` export of this folder. */
export interface BenchCase {
  name: string;
  args: string[];
  /** Start the fake API and point TRACKER_URL at it (with a valid TRACKER_AUTH_TOKEN). */
  needsApi?: boolean;
  env?: Record<string, string>;
  /** Prepares a working directory or config dir before the timed runs (not timed). */
  setup?: (ctx: {
    apiUrl: string | undefined;
    configDir: string;
    cwd: string;
  }) => Promise<{ cwd?: string; env?: Record<string, string> } | undefined>;
}
