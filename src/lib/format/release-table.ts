/** The list views of `release list` and `release deploys`. */
import type { Deploy, Release, ReleaseProject } from "../api/releases.ts";
import type { ListView, ViewColumn } from "../view/list.ts";
import { listTime } from "./time.ts";

/** What a `release list` run chooses beyond its rows. */
export interface ReleaseListOptions {
  /** The listed project: its health is shown; otherwise the first project that has health data. */
  project?: string | undefined;
  /** Some row has health data: ADOPTION and CRASH-FREE are shown. */
  health: boolean;
}

/** The health block shown for a release: the listed project's, else the first one with data. */
export function releaseHealth(
  r: Release,
  project?: string,
): NonNullable<ReleaseProject["healthData"]> | undefined {
  const projects = r.projects ?? [];
  const own = project ? projects.find((p) => p.slug === project) : undefined;
  return (own ?? projects.find((p) => p.healthData))?.healthData ?? undefined;
}

/** The options of a `release list` run over these rows. */
export function releaseListOptions(rows: readonly Release[], project?: string): ReleaseListOptions {
  return { project, health: rows.some((r) => releaseHealth(r, project) !== undefined) };
}

/** A percentage: `45.2%` on a terminal, the plain number piped; empty when unknown. */
export function percent(n: number | null | undefined, tty: boolean): string {
  if (typeof n !== "number" || !Number.isFinite(n)) return tty ? "-" : "";
  const text = String(Number(n.toFixed(2)));
  return tty ? `${text}%` : text;
}

/** A deploy in one cell: `production 2h ago` (terminal) or `production 2026-01-15T10:00:00Z`. */
export function deployCell(d: Deploy | null | undefined, nowMs: number, tty: boolean): string {
  if (!d) return "-";
  return `${d.environment} ${listTime(d.dateFinished ?? d.dateStarted, nowMs, tty)}`;
}

function healthColumns(o: ReleaseListOptions): ViewColumn<Release>[] {
  if (!o.health) return [];
  const health = (r: Release) => releaseHealth(r, o.project);
  return [
    {
      header: "adoption",
      align: "right",
      cell: (r, c) => percent(health(r)?.adoption ?? health(r)?.sessionsAdoption, c.tty),
    },
    { header: "crash-free", align: "right", cell: (r, c) => percent(health(r)?.crashFreeSessions, c.tty) },
  ];
}

/**
 * `release list`: VERSION, CREATED, NEW ISSUES, LAST DEPLOY, and ADOPTION with CRASH-FREE
 * (sessions) when any row has health data. Piped: RFC 3339 times, plain numbers. A row's document
 * is the release as the service gave it.
 */
export const RELEASE_LIST_VIEW: ListView<Release, ReleaseListOptions> = {
  name: "release list",
  id: "version",
  document: (r) => r,
  columns: (o) => [
    { header: "version", flex: true, cell: (r) => r.version },
    { header: "created", cell: (r, c) => listTime(r.dateCreated, c.now, c.tty) },
    { header: "new issues", align: "right", cell: (r) => String(r.newGroups ?? 0) },
    { header: "last deploy", cell: (r, c) => deployCell(r.lastDeploy, c.now, c.tty) },
    ...healthColumns(o),
  ],
};

/** `release deploys`: ENVIRONMENT, NAME, STARTED, FINISHED, URL, rows as sortDeploys orders them. */
export const RELEASE_DEPLOYS_VIEW: ListView<Deploy> = {
  name: "release deploys",
  id: "id",
  document: (d) => d,
  columns: () => [
    { header: "environment", cell: (d) => d.environment },
    { header: "name", cell: (d) => d.name ?? "-" },
    { header: "started", cell: (d, c) => listTime(d.dateStarted, c.now, c.tty) },
    { header: "finished", cell: (d, c) => listTime(d.dateFinished, c.now, c.tty) },
    { header: "url", flex: true, cell: (d) => d.url ?? "-" },
  ],
};

/** Deploys newest first (by finish, else start). */
export function sortDeploys(rows: readonly Deploy[]): Deploy[] {
  const at = (d: Deploy) => Date.parse(d.dateFinished ?? d.dateStarted ?? "") || 0;
  return [...rows].sort((a, b) => at(b) - at(a));
}

/** The latest deploy of each environment, environments in order of their latest deploy. */
export function latestPerEnvironment(rows: readonly Deploy[]): Deploy[] {
  const seen = new Set<string>();
  return sortDeploys(rows).filter((d) => !seen.has(d.environment) && seen.add(d.environment));
}
