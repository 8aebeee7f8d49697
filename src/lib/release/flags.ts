/**
 * Pure parsers of the release commands' arguments (API.md §18.1, §18.2): each throws a
 * ValidationError saying what is allowed, before any request is sent.
 */
import { ValidationError } from "../errors.ts";

/** Commits `set-commits --local` sends when no previous release has commits (`--initial-depth`). */
export const INITIAL_DEPTH = 20;
/** Longest version the service accepts. */
export const VERSION_MAX_CHARS = 200;
/** Longest environment name the service accepts. */
export const ENVIRONMENT_MAX_CHARS = 64;
/** Versions the service refuses by name. */
const RESERVED_VERSIONS = new Set([".", "..", "latest"]);

/** A release version as the service accepts it: 1-200 characters, no `/ \` or line breaks/tabs, not `.`, `..` or `latest`. */
export function parseVersion(raw: string): string {
  const text = raw.trim();
  if (text === "") throw new ValidationError("The release version is empty.", "version");
  if (text.length > VERSION_MAX_CHARS) {
    throw new ValidationError(
      `The release version is ${text.length} characters long; at most ${VERSION_MAX_CHARS} are allowed.`,
      "version",
    );
  }
  if (/[\r\n\f\t/\\]/.test(text) || RESERVED_VERSIONS.has(text)) {
    throw new ValidationError(
      `Invalid release version '${text}': it may not contain /, \\, tabs or line breaks, nor be '.', '..' or 'latest'.`,
      "version",
    );
  }
  return text;
}

/** An environment name: 1-64 characters, no `/` or line breaks. */
export function parseEnvironment(raw: string): string {
  const text = raw.trim();
  if (text === "" || text.length > ENVIRONMENT_MAX_CHARS || /[/\r\n]/.test(text)) {
    throw new ValidationError(
      `--env must be 1-${ENVIRONMENT_MAX_CHARS} characters without '/' or line breaks, got '${raw}'.`,
      "env",
    );
  }
  return text;
}

/**
 * A point in time for --released/--started/--finished: an ISO 8601 date or date-time (UTC unless
 * it says otherwise), Unix seconds, or `now` (resolved by the command with the run's clock).
 * Returns `now` or an ISO 8601 string in UTC.
 */
export function parseTime(raw: string): string {
  const text = raw.trim();
  if (text === "now") return text;
  let ms = Number.NaN;
  if (/^\d{9,11}(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) || text.length === 10;
    ms = Date.parse(zoned ? text.replace(" ", "T") : `${text.replace(" ", "T")}Z`);
  }
  if (!Number.isFinite(ms)) {
    throw new ValidationError(
      `Expected a time like 2026-01-15T12:00:00Z, 2026-01-15, Unix seconds or 'now', got '${raw}'.`,
      "time",
    );
  }
  return new Date(ms).toISOString();
}

/** One `--commit <repo>@[<from>..]<to>` value. */
export interface CommitSpec {
  repository: string;
  commit: string;
  previousCommit?: string;
}

/** Parses `--commit owner/repo@sha` or `owner/repo@from..to`. */
export function parseCommitSpec(raw: string): CommitSpec {
  const text = raw.trim();
  const at = text.lastIndexOf("@");
  const repository = at > 0 ? text.slice(0, at) : "";
  const range = at > 0 ? text.slice(at + 1) : "";
  const dots = range.indexOf("..");
  const from = dots >= 0 ? range.slice(0, dots) : undefined;
  const to = dots >= 0 ? range.slice(dots + 2) : range;
  const ok = (s: string | undefined) => s !== undefined && /^[^\s.][^\s]*$/.test(s) && !s.includes("..");
  if (!repository || !ok(to) || (from !== undefined && !ok(from))) {
    throw new ValidationError(
      `--commit must be <repo>@<commit> or <repo>@<from>..<to> (e.g. acme/web@4f2a9c1), got '${raw}'.`,
      "commit",
    );
  }
  return { repository, commit: to as string, ...(from !== undefined ? { previousCommit: from } : {}) };
}

/** A time flag's value with `now` resolved against the run's clock. */
export function resolveTime(value: string | undefined, nowMs: number): string | undefined {
  if (value === undefined) return undefined;
  return value === "now" ? new Date(nowMs).toISOString() : value;
}
