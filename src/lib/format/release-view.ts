/** The view of `release view`: dates, projects, commits, authors, deploys, issues, health. */
import type { Deploy, Release } from "../api/releases.ts";
import type { DocView } from "../view/doc.ts";
import type { CellContext } from "../view/list.ts";
import { latestPerEnvironment, percent } from "./release-table.ts";
import { isoSeconds, relativeTime } from "./time.ts";
import { oneLine } from "./one-line.ts";

/** What `release view` shows: the release, its deploys and the organization it was asked in. */
export interface ReleaseShown {
  release: Release;
  deploys: readonly Deploy[];
  org: string;
}

/** An absolute time, with a relative one beside it on a terminal. */
function when(iso: string | null | undefined, c: CellContext): string {
  if (!iso) return "-";
  return c.tty ? `${isoSeconds(iso)} (${relativeTime(iso, c.now)})` : isoSeconds(iso);
}

function field(label: string, value: string): string {
  return `${(label ? `${label}:` : "").padEnd(13)}${oneLine(value)}`;
}

/** The deploys lines: the count, then the latest deploy of each environment. */
function deployLines(r: Release, deploys: readonly Deploy[], c: CellContext): string[] {
  const envs = latestPerEnvironment(deploys.length > 0 ? deploys : r.lastDeploy ? [r.lastDeploy] : []);
  if (envs.length === 0) return [field("Deploys", "none")];
  const width = Math.max(...envs.map((d) => d.environment.length));
  return [
    field("Deploys", `${r.deployCount ?? envs.length} (latest per environment)`),
    ...envs.map((d) => {
      const extra = [d.name, d.url].filter(Boolean).join("  ");
      return oneLine(
        `  ${d.environment.padEnd(width)}  ${when(d.dateFinished ?? d.dateStarted, c)}${extra ? `  ${extra}` : ""}`,
      );
    }),
  ];
}

/** One `Health` line per project that has health data. */
function healthLines(r: Release): string[] {
  const healthy = (r.projects ?? []).filter((p) => p.healthData);
  return healthy.map((p, i) => {
    const h = p.healthData ?? {};
    return field(
      i === 0 ? "Health" : "",
      `${p.slug}: adoption ${percent(h.adoption ?? h.sessionsAdoption, true)}, crash-free sessions ${percent(h.crashFreeSessions, true)}, users ${percent(h.crashFreeUsers, true)}`,
    );
  });
}

/** The view's lines (one block: the text has no blank line to put between sections). */
function releaseLines({ release: r, deploys, org }: ReleaseShown, c: CellContext): string[] {
  const lines = [
    oneLine(`Release ${r.version} (${org})`),
    field("Status", r.dateReleased ? `finalized ${when(r.dateReleased, c)}` : "not finalized"),
    field("Created", when(r.dateCreated, c)),
    field("Projects", (r.projects ?? []).map((p) => p.slug).join(", ") || "-"),
  ];
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
    field("First event", when(r.firstEvent, c)),
    field("Last event", when(r.lastEvent, c)),
    ...deployLines(r, deploys, c),
    ...healthLines(r),
  );
  return lines;
}

/**
 * `release view`: the release's facts; deploys are the release's latest per environment. Its
 * document is the release with all its deploys.
 */
export const RELEASE_VIEW: DocView<ReleaseShown> = {
  name: "release view",
  id: "version",
  document: (d) => ({ ...d.release, deploys: d.deploys }),
  sections: (d, c) => [{ block: { kind: "lines", lines: releaseLines(d, c) } }],
};
