/** Parsing the `<issue>` argument of `issue view|explain|plan`. */
import { ValidationError } from "../errors.ts";
import { looksLikeUrl, malformedEscape, parseServiceUrl, SLUG_RE } from "../resolve/url.ts";

/** The forms an issue reference can take. */
export type IssueRef =
  | { kind: "numeric"; id: string; org?: string }
  /** `PROJ-4Y` (or `w-4Y` when `w` is a stored alias: decided at resolution time). */
  | { kind: "dashed"; prefix: string; suffix: string; org?: string }
  | { kind: "suffix"; suffix: string };

const DASHED_RE = /^([A-Za-z0-9][A-Za-z0-9_.-]*?)-([A-Za-z0-9]+)$/;
const SUFFIX_RE = /^[A-Za-z0-9]+$/;

function invalid(raw: string): ValidationError {
  return new ValidationError(
    `Invalid issue '${raw}'. Use a short ID (WEB-4Y), a numeric ID (4001), an alias-suffix from the last multi-project listing (w-4Y), a suffix (4Y) or an issue URL.`,
    "issue",
  );
}

/** A pasted URL with a malformed percent-escape (`%E0%A4%A`): usually cut short when copied. */
function badEscape(raw: string, segment: string): ValidationError {
  return new ValidationError(
    `Invalid issue URL '${raw.trim()}': '${segment}' is not a valid percent-escape sequence. Copy the URL again from the browser's address bar.`,
    "issue",
  );
}

/**
 * Parses an issue reference. All digits is a numeric id (so a suffix made only of digits needs
 * its project prefix); `<org>/<ref>` and issue URLs carry their organization.
 */
export function parseIssueRef(raw: string): IssueRef {
  const text = raw.trim();
  if (text === "") throw invalid(raw);
  if (looksLikeUrl(text)) {
    const bad = malformedEscape(text);
    if (bad !== undefined) throw badEscape(raw, bad);
    const parts = parseServiceUrl(text);
    if (!parts?.issue) throw invalid(raw);
    const inner: IssueRef = /^\d+$/.test(parts.issue)
      ? { kind: "numeric", id: parts.issue }
      : parseIssueRef(parts.issue);
    if (inner.kind === "suffix") throw invalid(raw);
    return parts.org ? { ...inner, org: parts.org } : inner;
  }
  const slash = text.split("/");
  if (slash.length === 2) {
    const [org, rest] = slash as [string, string];
    if (!SLUG_RE.test(org) || rest === "") throw invalid(raw);
    const inner = parseIssueRef(rest);
    if (inner.kind === "suffix") throw invalid(raw);
    return { ...inner, org };
  }
  if (slash.length > 2) throw invalid(raw);
  if (/^\d+$/.test(text)) return { kind: "numeric", id: text };
  const m = DASHED_RE.exec(text);
  if (m) return { kind: "dashed", prefix: m[1] as string, suffix: (m[2] as string).toUpperCase() };
  if (SUFFIX_RE.test(text)) return { kind: "suffix", suffix: text.toUpperCase() };
  throw invalid(raw);
}
