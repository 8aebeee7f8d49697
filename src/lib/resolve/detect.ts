import type { TrackerContext } from "../../context.ts";
import type { ResolvedProject, ResolveOptions } from "./target.ts";

/**
 * Projects detected from DSNs (TRACKER_DSN, .env files, source code) around the working directory.
 * DSN detection arrives with the context issue; until then nothing is detected.
 */
export async function detectTargets(_ctx: TrackerContext, _opts: ResolveOptions): Promise<ResolvedProject[]> {
  return [];
}
