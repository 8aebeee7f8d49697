/** The human tables of `release list` and `release deploys`. */
import type { Deploy, Release, ReleaseProject } from "../api/releases.ts";
import { listTime } from "./time.ts";
import { formatTable } from "./table.ts";

/** Options of the release tables. */
export interface ReleaseTableOptions {
  /** Terminal width when stdout is a TTY (relative times, truncation); undefined when piped. */
  width?: number;
  nowMs: number;
  /** The listed project: its health is shown; otherwise the first project that has health data. */
  project?: string;
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

/**
 * Releases as a table: VERSION, CREATED, NEW ISSUES, LAST DEPLOY, and ADOPTION with CRASH-FREE
 * (sessions) when any row has health data. Piped: RFC 3339 times, plain numbers, no header.
 */
export function formatReleaseTable(rows: readonly Release[], opts: ReleaseTableOptions): string[] {
  const tty = opts.width !== undefined;
  const health = rows.map((r) => releaseHealth(r, opts.project));
  const withHealth = health.some((h) => h !== undefined);
  const columns = [
    { header: "version", flex: true },
    { header: "created" },
    { header: "new issues", align: "right" as const },
    { header: "last deploy" },
    ...(withHealth
      ? [
          { header: "adoption", align: "right" as const },
          { header: "crash-free", align: "right" as const },
        ]
      : []),
  ];
  return formatTable(
    columns,
    rows.map((r, i) => [
      r.version,
      listTime(r.dateCreated, opts.nowMs, tty),
      String(r.newGroups ?? 0),
      deployCell(r.lastDeploy, opts.nowMs, tty),
      ...(withHealth
        ? [
            percent(health[i]?.adoption ?? health[i]?.sessionsAdoption, tty),
            percent(health[i]?.crashFreeSessions, tty),
          ]
        : []),
    ]),
    opts.width,
  );
}

/** Deploys as a table: ENVIRONMENT, NAME, STARTED, FINISHED, URL (newest finished first). */
export function formatDeployTable(rows: readonly Deploy[], opts: ReleaseTableOptions): string[] {
  const tty = opts.width !== undefined;
  return formatTable(
    [
      { header: "environment" },
      { header: "name" },
      { header: "started" },
      { header: "finished" },
      { header: "url", flex: true },
    ],
    sortDeploys(rows).map((d) => [
      d.environment,
      d.name ?? "-",
      listTime(d.dateStarted, opts.nowMs, tty),
      listTime(d.dateFinished, opts.nowMs, tty),
      d.url ?? "-",
    ]),
    opts.width,
  );
}

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
