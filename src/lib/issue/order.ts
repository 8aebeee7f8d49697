/** Client-side ordering of issues that matches the server's `sort` (to merge several projects). */
import type { Issue } from "../api/issues.ts";

function time(iso: string | null): number {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
}

/** A comparator putting the issue that the server would list first first. */
export function issueComparator(sort: string): (a: Issue, b: Issue) => number {
  switch (sort) {
    case "new":
      return (a, b) => time(b.firstSeen) - time(a.firstSeen);
    case "freq":
      return (a, b) => b.count - a.count;
    case "user":
      return (a, b) => b.userCount - a.userCount;
    default:
      return (a, b) => time(b.lastSeen) - time(a.lastSeen);
  }
}
