/**
 * The references a listing prints for scripts: the short ID, or `org/SHORT-ID` where the short ID
 * alone could name issues of two organizations (a monorepo spanning organizations), so piped IDs
 * always resolve (`tracker issue list | cut -f1 | tracker issue resolve -`).
 */

/** What a listed row needs to be referenced: its short ID and organization. */
export interface ListedRef {
  shortId: string;
  org: string;
}

/** The project part of a short ID (`MOBILE-APP-4Y` → `MOBILE-APP`), upper case. */
export function shortIdPrefix(shortId: string): string {
  const dash = shortId.lastIndexOf("-");
  return (dash < 0 ? shortId : shortId.slice(0, dash)).toUpperCase();
}

/**
 * The organizations each short-ID prefix is known in: from the rows themselves, and from the
 * listed projects (a project's short IDs start with its slug, upper-cased).
 */
function prefixOrgs(
  rows: readonly ListedRef[],
  projects: readonly { org: string; project: string }[],
): Map<string, Set<string>> {
  const byPrefix = new Map<string, Set<string>>();
  const add = (prefix: string, org: string) =>
    byPrefix.set(prefix, (byPrefix.get(prefix) ?? new Set()).add(org));
  for (const r of rows) add(shortIdPrefix(r.shortId), r.org);
  for (const p of projects) add(p.project.toUpperCase(), p.org);
  return byPrefix;
}

/**
 * A function giving each row's reference: `org/SHORT-ID` when its prefix is known in more than
 * one of the listing's organizations, else the bare short ID (single-organization listings never
 * change).
 */
export function listedRefs(
  rows: readonly ListedRef[],
  projects: readonly { org: string; project: string }[] = [],
): (row: ListedRef) => string {
  const orgs = new Set([...rows.map((r) => r.org), ...projects.map((p) => p.org)]);
  if (orgs.size < 2) return (row) => row.shortId;
  const byPrefix = prefixOrgs(rows, projects);
  return (row) =>
    (byPrefix.get(shortIdPrefix(row.shortId))?.size ?? 0) > 1 ? `${row.org}/${row.shortId}` : row.shortId;
}
