/** Builds a command's full description: a paragraph, then an Examples block. */
export function describe(text: string, examples: readonly string[]): string {
  const ex = examples.map((e) => `  ${e}`).join("\n");
  return `${text}\n\nExamples:\n${ex}`;
}

/** The target-resolution order, shown in the help of every command that takes a target. */
export const TARGET_HELP =
  "Target: <org>/<project>, <project> (searched across organizations) or nothing. When omitted, it comes from TRACKER_ORG/TRACKER_PROJECT, then `tracker defaults set`, then a DSN found in TRACKER_DSN, .env files or source code.";
