/** The human view of `release view`: dates, projects, commits, authors, deploys, issues, health. */
import type { Deploy, Release } from "../api/releases.ts";
import { latestPerEnvironment, percent } from "./release-table.ts";
import { isoSeconds, relativeTime } from "./time.ts";
import { oneLine } from "./one-line.ts";

/** Options of formatReleaseView. */
export interface ReleaseViewOptions {
  org: string;
  /** True on a terminal: absolute times get a relative one beside them. */
  tty: boolean;
  nowMs: number;
}

function when(iso: string | null | undefined, opts: ReleaseViewOptions): string {
  if (!iso) return "-";
  return opts.tty ? `${isoSeconds(iso)} (${relativeTime(iso, opts.nowMs)})` : isoSeconds(iso);
}

function field(label: string, value: string): string {
  return `${(label ? `${label}:` : "").padEnd(13)}${oneLine(value)}`;
}

/** The view's lines; deploys are the release's latest per project and environment. */
export function formatReleaseView(
  r: Release,
  deploys: readonly Deploy[],
  opts: ReleaseViewOptions,
): string[] {
  const lines = [oneLine(`Release ${r.version} (${opts.org})`)];
  lines.push(
    field("Status", r.dateReleased ? `finalized ${when(r.dateReleased, opts)}` : "not finalized"),
    field("Created", when(r.dateCreated, opts)),
    field("Projects", (r.projects ?? []).map((p) => p.slug).join(", ") || "-"),
  );
  if (r.ref) lines.push(field("Ref", r.ref));
  if (r.url) lines.push(field("URL", r.url));
  const last = r.lastCommit ? ` (last ${r.lastCommit.id.slice(0, 12)})` : "";
  lines.push(field("Commits", `${r.commitCount ?? 0}${last}`));
  const authors = (r.authors ?? []).map((a) =>
    a.email ? `${a.name ?? a.email} <${a.email}>` : (a.name ?? "?"),
  );
  if (authors.length > 0) lines.push(field("Authors", authors.join(", ")));
  lines.push(
    field("New issues", String(r.newGroups ?? 0)),
    field("First event", when(r.firstEvent, opts)),
    field("Last event", when(r.lastEvent, opts)),
  );
  const envs = latestPerEnvironment(deploys.length > 0 ? deploys : r.lastDeploy ? [r.lastDeploy] : []);
  if (envs.length === 0) lines.push(field("Deploys", "none"));
  else {
    lines.push(field("Deploys", `${r.deployCount ?? envs.length} (latest per environment)`));
    const width = Math.max(...envs.map((d) => d.environment.length));
    for (const d of envs) {
      const extra = [d.name, d.url].filter(Boolean).join("  ");
      lines.push(
        oneLine(
          `  ${d.environment.padEnd(width)}  ${when(d.dateFinished ?? d.dateStarted, opts)}${extra ? `  ${extra}` : ""}`,
        ),
      );
    }
  }
  const healthy = (r.projects ?? []).filter((p) => p.healthData);
  for (const p of healthy) {
    const h = p.healthData ?? {};
    lines.push(
      field(
        healthy.indexOf(p) === 0 ? "Health" : "",
        `${p.slug}: adoption ${percent(h.adoption ?? h.sessionsAdoption, true)}, crash-free sessions ${percent(h.crashFreeSessions, true)}, users ${percent(h.crashFreeUsers, true)}`,
      ),
    );
  }
  return lines;
}
