/** The incident sections of `issue view`: first release, suspect commits, linked tickets, notes. */
import type { IssueViewExtras } from "../issue/view-extras.ts";
import type { ViewSection } from "../view/doc.ts";
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
import { isoSeconds, relativeTime } from "./time.ts";

const lines = (l: readonly string[]) => ({ kind: "lines", lines: l }) as const;

/**
 * The sections after the issue's summary; none for what it lacks. Under a size bound the
 * markdown drops the later notes first, then tickets, then all but the first suspect commits.
 */
export function incidentSections(x: IssueViewExtras, now: number): ViewSection[] {
  const out: ViewSection[] = [];
  const when = (iso: string | null) => (iso ? `${isoSeconds(iso)} (${relativeTime(iso, now)})` : "-");
  if (x.firstRelease) {
    const r = x.firstRelease;
    const after = r.firstEventAfter;
    out.push({
      heading: `First release ${oneLine(r.version)}`,
      block: lines([
        ...(r.deploys.length === 0 ? ["  Deploys:     none recorded"] : []),
        ...r.deploys.map((d) => `  Deployed:    ${oneLine(d.environment)} ${when(d.dateFinished)}`),
        ...(after
          ? [`  First event: ${formatDuration(after.ms)} after the ${oneLine(after.environment)} deploy`]
          : []),
      ]),
      priority: 1,
      label: "deploys",
    });
  }
  out.push({
    heading: "Suspect commits",
    block: lines(
      x.suspectCommits.map((c) => {
        const pr = c.pullRequest ? `  ${c.pullRequest.url}` : "";
        return `  ${c.commit.slice(0, 12)}  ${oneLine(c.author)}: ${oneLine(c.message)}${pr}`;
      }),
    ),
    priority: (i) => 1 + i,
    label: "suspect commits",
  });
  out.push({
    heading: "Linked tickets",
    block: lines(
      x.links.map((l) => {
        const title = l.title ? ` ${oneLine(l.title)}` : "";
        return `  ${oneLine(l.key)}${title}  ${oneLine(l.url)} (${oneLine(l.provider)}, link ${l.id})`;
      }),
    ),
    priority: 2,
    label: "linked tickets",
  });
  out.push({
    heading: "Latest notes",
    block: lines(
      x.notes.map((n) => {
        const text = typeof n.data.text === "string" ? n.data.text : "";
        return `  ${isoSeconds(n.dateCreated)}  ${oneLine(n.user ?? "Sentry")}: ${oneLine(text)}`;
      }),
    ),
    priority: (i) => 2 + i,
    label: "notes",
  });
  return out;
}
