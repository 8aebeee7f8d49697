import type { TrackerContext } from "../../context.ts";
import { FAN_OUT_CONCURRENCY, mapLimit } from "../concurrency.ts";
import { type FindDsnOptions, findDsns } from "../dsn/detect.ts";
import { resolveDsnProject } from "../dsn/resolve.ts";
import { ResolutionError } from "../errors.ts";
import type { ResolvedProject, ResolveOptions } from "./target.ts";

/**
 * Projects detected from DSNs (TRACKER_DSN, .env files, source code) around the working directory,
 * one per distinct org/project. A DSN that matches no accessible project is a ResolutionError
 * naming its file when nothing else was found; next to other projects it is skipped with a warning.
 */
export async function detectTargets(
  ctx: TrackerContext,
  opts: ResolveOptions & { hooks?: FindDsnOptions["hooks"] },
): Promise<ResolvedProject[]> {
  const detection = findDsns(ctx, { fresh: opts.fresh, hooks: opts.hooks });
  if (detection.found.length === 0) {
    ctx.log.debug(`Target: no DSN found${detection.root ? ` under ${detection.root}` : ""}`);
    return [];
  }
  // The fan-out cap of every other fan-out: with fewer slots, a fifth DSN waited a round trip.
  const results = await mapLimit(detection.found, FAN_OUT_CONCURRENCY, async (f) => {
    try {
      return await resolveDsnProject(ctx, f.dsn, { source: f.source, fresh: opts.fresh });
    } catch (err) {
      if (err instanceof ResolutionError) return err;
      throw err;
    }
  });
  const out: ResolvedProject[] = [];
  const failures: ResolutionError[] = [];
  results.forEach((r, i) => {
    if (r instanceof ResolutionError) {
      failures.push(r);
      return;
    }
    const source = detection.found[i]?.source ?? "DSN";
    if (!out.some((p) => p.org === r.org && p.project === r.project)) {
      out.push({ org: r.org, project: r.project, source });
    }
  });
  if (out.length === 0 && failures[0]) throw failures[0];
  warnUnmatched(ctx, failures);
  return out;
}

/** Unmatched DSNs named one by one on stderr; any more are counted in one line (and named at debug level). */
export const MAX_UNMATCHED_NAMED = 3;

function warnUnmatched(ctx: TrackerContext, failures: readonly ResolutionError[]): void {
  for (const f of failures.slice(0, MAX_UNMATCHED_NAMED)) ctx.log.warn(f.message);
  const rest = failures.slice(MAX_UNMATCHED_NAMED);
  if (rest.length === 0) return;
  for (const f of rest) ctx.log.debug(f.message);
  ctx.log.warn(
    `${rest.length} more detected DSN(s) could not be matched to any accessible project either (--log-level debug names them).`,
  );
}
