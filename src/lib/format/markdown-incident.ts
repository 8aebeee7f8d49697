/**
 * `--format md` of what `issue view` adds during an incident (API.md §22.4–22.7): the first
 * release with its deploys, suspect commits, linked tickets and the last notes, each droppable
 * under a size bound after the issue's own summary.
 */
import { group, isObj, type Json, line, type Obj, type Section } from "./markdown-parts.ts";

const list = (v: Json): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** The incident sections of an issue view document (nothing for what it lacks). */
export function incidentSections(d: Obj): Section[] {
  const out: Section[] = [];
  const release = isObj(d.firstRelease) ? d.firstRelease : undefined;
  if (release) {
    const after = isObj(release.firstEventAfter)
      ? ` · first event ${Math.round(Number(release.firstEventAfter.ms) / 60_000)} min after the ${line(release.firstEventAfter.environment)} deploy`
      : "";
    group(
      out,
      `### First release ${line(release.version)}${after}`,
      "deploys",
      list(release.deploys).map((x) => `- deployed to ${line(x.environment)} at ${line(x.dateFinished)}`),
      () => 1,
    );
    if (list(release.deploys).length === 0)
      out.push({ text: `### First release ${line(release.version)}`, priority: 1 });
  }
  group(
    out,
    "### Suspect commits",
    "suspect commits",
    list(d.suspectCommits).map((c) => {
      const pr = isObj(c.pullRequest) ? ` (${line(c.pullRequest.url)})` : "";
      return `- \`${line(c.commit).slice(0, 12)}\` ${line(c.author)}: ${line(c.message)}${pr}`;
    }),
    (i) => 1 + i,
  );
  group(
    out,
    "### Linked tickets",
    "linked tickets",
    list(d.links).map((l) => `- ${line(l.key)} ${line(l.title)} ${line(l.url)}`),
    () => 2,
  );
  group(
    out,
    "### Latest notes",
    "notes",
    list(d.notes).map(
      (n) =>
        `- ${line(n.dateCreated)} ${line(n.user ?? "Sentry")}: ${line(isObj(n.data) ? n.data.text : "")}`,
    ),
    (i) => 2 + i,
  );
  return out;
}
