/**
 * The deliberate breaks `script/mutate.ts` applies, one at a time. Each names the exact text it
 * replaces (it must occur once in the file) and the tests that must catch it.
 */

/** One deliberate break. */
export interface Mutation {
  name: string;
  /** Path from the repository root. */
  file: string;
  /** Exact text to replace (must occur exactly once). */
  find: string;
  replace: string;
  /** Test files that must fail with the break in place. */
  tests: string[];
}

/** The critical paths of issue 11: upgrade, checksums, DSN secrets, colour, file modes, redaction, sanitising. */
export const MUTATIONS: Mutation[] = [];
