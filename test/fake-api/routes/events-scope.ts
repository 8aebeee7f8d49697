/**
 * What every events-table query of the fake checks first, as Sentry does: the period
 * (`statsPeriod`, default 14 days) and the projects (numeric ids, `-1` for all; none means the
 * member projects; another org's id is a 403). Shared by the logs and the spans/errors datasets.
 */
import { detail } from "../http.ts";
import type { FakeRequest, SeedOrg } from "../types.ts";
import { absoluteWindow } from "./window.ts";

/** Milliseconds per period unit. */
export const PERIOD_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The query's window and project ids, or the 400/403 Sentry answers. */
export function eventsScope(
  req: FakeRequest,
  org: SeedOrg,
): { windowMs: number; ids: Set<string> } | Response {
  const rawPeriod = req.query.get("statsPeriod");
  const pm = rawPeriod === null ? null : /^(\d+)([smhdw])$/.exec(rawPeriod);
  if (rawPeriod !== null && !pm) return detail(400, `Invalid date range: statsPeriod=${rawPeriod}`);
  const range = absoluteWindow(req);
  if (range instanceof Response) return range;
  const windowMs = pm ? Number(pm[1]) * (PERIOD_MS[pm[2] as string] as number) : 14 * 86_400_000;
  const projectParams = req.query.getAll("project");
  if (projectParams.some((p) => !/^-?\d+$/.test(p)))
    return detail(400, "Invalid project parameter. Values must be numbers.");
  const orgProjects = req.state.projects.filter((p) => p.org === org.slug);
  if (projectParams.some((id) => id !== "-1" && !orgProjects.some((p) => p.id === id)))
    return detail(403, "You do not have permission to perform this action.");
  const ids = new Set(
    projectParams.length === 0
      ? orgProjects.filter((p) => p.isMember).map((p) => p.id)
      : projectParams.includes("-1")
        ? orgProjects.map((p) => p.id)
        : projectParams,
  );
  return { windowMs, ids };
}
