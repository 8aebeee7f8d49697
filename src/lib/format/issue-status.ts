/**
 * An issue's status in words: who it is assigned to, what resolved it (a release, the next
 * release, a commit) and the condition an archived issue waits for (Sentry's `statusDetails`).
 * Shared by the human view and, for `--format md`, the markdown rendering of the view JSON.
 */

/** An assignee as the API sends it (`assignedTo`): a user or a team. */
export interface Assignee {
  type?: string | null;
  id: string | number;
  name?: string | null;
  email?: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === "number" && v > 0 ? v : undefined);

/** `Jane Doe (jane@example.com)` for a user, `#backend` for a team; undefined when unassigned. */
export function assigneeText(a: unknown): string | undefined {
  if (!isRecord(a)) return undefined;
  const name = text(a.name) ?? String(a.id ?? "");
  if (a.type === "team") return `#${name}`;
  const email = text(a.email);
  return email && email !== name ? `${name} (${email})` : name || undefined;
}

/** A span of minutes in the largest whole unit: `90 minutes`, `2 hours`, `1 day`. */
export function minutesText(minutes: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (minutes % 1440 === 0) return unit(minutes / 1440, "day");
  if (minutes % 60 === 0) return unit(minutes / 60, "hour");
  return unit(minutes, "minute");
}

/** `resolved in <release>`, `… in the next release`, `… in commit <sha> (<repo>)`; undefined otherwise. */
function resolvedText(d: Record<string, unknown>): string | undefined {
  const release = text(d.inRelease);
  if (release) return `resolved in ${release}`;
  if (d.inNextRelease === true) return "resolved in the next release";
  if (!isRecord(d.inCommit)) return undefined;
  const sha = text(d.inCommit.commit) ?? text(d.inCommit.id);
  const repo = d.inCommit.repository;
  const repoName = text(repo) ?? (isRecord(repo) ? text(repo.name) : undefined);
  if (!sha) return undefined;
  return `resolved in commit ${sha.slice(0, 12)}${repoName ? ` (${repoName})` : ""}`;
}

/** `until N more events|users[ within <window>]` for a count condition. */
function thresholdText(n: number | undefined, window: unknown, noun: string): string | undefined {
  if (n === undefined) return undefined;
  const w = count(window);
  return `until ${n} more ${noun}${w ? ` within ${minutesText(w)}` : ""}`;
}

/** The condition an archived issue waits for: `archived until it escalates`, `… forever`, a date, a count. */
function archivedText(d: Record<string, unknown>): string {
  if (d.ignoreUntilEscalating === true) return "archived until it escalates";
  const parts = [
    text(d.ignoreUntil) ? `until ${text(d.ignoreUntil)}` : undefined,
    count(d.ignoreDuration) ? `for ${minutesText(count(d.ignoreDuration) as number)}` : undefined,
    thresholdText(count(d.ignoreCount), d.ignoreWindow, "events"),
    thresholdText(count(d.ignoreUserCount), d.ignoreUserWindow, "users"),
  ].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? `archived ${parts.join(" or ")}` : "archived forever";
}

/**
 * What a status means in words: `resolved in 1.2.3`, `archived until 100 more events within 1
 * hour`; undefined when the status has nothing to add (unresolved, or resolved without details).
 */
export function statusDetailText(status: string, details: unknown): string | undefined {
  const d = isRecord(details) ? details : {};
  if (status === "resolved") return resolvedText(d);
  if (status === "ignored" || status === "archived") return archivedText(d);
  return undefined;
}
