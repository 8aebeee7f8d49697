import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { withFoundDifs } from "../../lib/debug-files/collect.ts";
import { normalizeDebugId } from "../../lib/debug-files/select.ts";
import { ResolutionError, ValidationError } from "../../lib/errors.ts";
import { DIF_FIND_VIEW } from "../../lib/format/dif-find.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { DifFindFlags } from "./routes-upload.ts";

/** `tracker debug-files find <id>… [path…]`: a local search; missing IDs end the run non-zero. */
export default async function debugFilesFind(
  this: TrackerContext,
  flags: DifFindFlags,
  ...args: string[]
): Promise<void> {
  const ids: string[] = [];
  const paths: string[] = [];
  for (const a of args) {
    const id = normalizeDebugId(a);
    if (id && paths.length === 0 && !existsSync(resolve(this.cwd, a))) ids.push(id);
    else paths.push(a);
  }
  if (ids.length === 0)
    throw new ValidationError("Name at least one debug ID, then the paths to search.", "id");
  const wanted = new Set(ids);
  const matches = await withFoundDifs(
    paths.length > 0 ? paths : ["."],
    { cwd: this.cwd },
    async (found, notes) => {
      for (const n of notes) this.log.debug(`debug-files find: ${n.path}: ${n.reason}`);
      return found
        .filter((f) => f.object.debugId && wanted.has(normalizeDebugId(f.object.debugId) ?? ""))
        .map((f) => ({
          id: normalizeDebugId(f.object.debugId as string) as string,
          path: f.display,
          type: f.object.format,
        }));
    },
  );
  const seen = new Set(matches.map((m) => m.id));
  const missing = ids.filter((id) => !seen.has(id));
  await writeDocView(this, flags.json, DIF_FIND_VIEW, { matches, missing });
  if (missing.length > 0)
    throw new ResolutionError(
      `Debug information file${missing.length === 1 ? "" : "s"}`,
      `not found for ${missing.join(", ")}`,
      "Search more paths (tracker debug-files find <id> <dir>…), or build with debug information.",
    );
}
