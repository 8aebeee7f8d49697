/** The incident sections of the human `issue view`: notes, linked tickets, suspect commits, first release. */
import type { IssueViewExtras } from "../issue/view-extras.ts";
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
import { isoSeconds, relativeTime } from "./time.ts";

/** The lines after the issue's summary; nothing for a section with nothing to say. */
export function formatIssueIncident(x: IssueViewExtras, now: number): string[] {
  const lines: string[] = [];
  const when = (iso: string | null) => (iso ? `${isoSeconds(iso)} (${relativeTime(iso, now)})` : "-");
  if (x.firstRelease) {
    const r = x.firstRelease;
    lines.push("", `First release ${oneLine(r.version)}`);
    if (r.deploys.length === 0) lines.push("  Deploys:     none recorded");
    for (const d of r.deploys) lines.push(`  Deployed:    ${oneLine(d.environment)} ${when(d.dateFinished)}`);
    if (r.firstEventAfter) {
      lines.push(
        `  First event: ${formatDuration(r.firstEventAfter.ms)} after the ${oneLine(r.firstEventAfter.environment)} deploy`,
      );
    }
  }
  if (x.suspectCommits.length > 0) {
    lines.push("", "Suspect commits");
    for (const c of x.suspectCommits) {
      const pr = c.pullRequest ? `  ${c.pullRequest.url}` : "";
      lines.push(`  ${c.commit.slice(0, 12)}  ${oneLine(c.author)}: ${oneLine(c.message)}${pr}`);
    }
  }
  if (x.links.length > 0) {
    lines.push("", "Linked tickets");
    for (const l of x.links) {
      const title = l.title ? ` ${oneLine(l.title)}` : "";
      lines.push(`  ${oneLine(l.key)}${title}  ${oneLine(l.url)} (${oneLine(l.provider)}, link ${l.id})`);
    }
  }
  if (x.notes.length > 0) {
    lines.push("", "Latest notes");
    for (const n of x.notes) {
      const text = typeof n.data.text === "string" ? n.data.text : "";
      lines.push(`  ${isoSeconds(n.dateCreated)}  ${oneLine(n.user ?? "Sentry")}: ${oneLine(text)}`);
    }
  }
  return lines;
}
