/**
 * Issue tags (API.md 17.5): every key of an issue with its top values, one key's totals, and one
 * key's values (paged). `{id}` is the numeric or the short id. Values are derived from the issue
 * (its event count, environment, project) so shares are deterministic and add up to totalValues.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, Route } from "../types.ts";
import { type FakeIssue, issueStore } from "./issues.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";

/** Distinct values of the `url` key (more than one page of 100). */
export const URL_VALUES = 150;

/** One stored value of a key. */
interface StoredValue {
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

const KEY_NAMES: Record<string, string> = {
  environment: "Environment",
  release: "Release",
  browser: "Browser",
  level: "Level",
  url: "URL",
};

/** Splits `total` by weights; the rounding remainder goes to the largest share. */
function split(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  parts[0] = (parts[0] as number) + total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/** The tag values of an issue by key, most frequent first. */
export function issueTagValues(x: FakeIssue, slug: string): Record<string, StoredValue[]> {
  const mk = (names: readonly string[], weights: readonly number[]) =>
    split(x.count, weights)
      .map((count, i) => ({
        value: names[i] as string,
        // Every value was seen at least once (a split of a small count would round some to 0).
        count: Math.max(1, count),
        firstSeen: x.firstSeen + i * 60_000,
        lastSeen: x.lastSeen - i * 60_000,
      }))
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  const other = x.environment === "production" ? "staging" : "production";
  const urlWeights = Array.from({ length: URL_VALUES }, (_, i) => URL_VALUES - i);
  return {
    environment: mk([x.environment, other], [82, 18]),
    release: mk([`${slug}@2.4.0`, `${slug}@2.3.1`, `${slug}@2.3.0`], [50, 30, 20]),
    browser: mk(["Chrome 131", "Safari 18", "Firefox 133", "Edge 131"], [55, 25, 15, 5]),
    level: mk([x.level], [1]),
    url: mk(
      urlWeights.map((_, i) => `https://example.com/page/${i + 1}`),
      urlWeights,
    ),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Sentry's TagValueSerializer: the tag key in `key`, the value in `value` and `name`. */
function valueJson(key: string, v: StoredValue) {
  return {
    key,
    name: v.value,
    value: v.value,
    count: v.count,
    lastSeen: iso(v.lastSeen),
    firstSeen: iso(v.firstSeen),
  };
}

function issueOr404(
  req: FakeRequest,
): { issue: FakeIssue; values: Record<string, StoredValue[]> } | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const ref = req.params.id ?? "";
  const issue = issueStore(req.state).issues.find(
    (x) => x.org === org.slug && (x.id === ref || x.shortId.toUpperCase() === ref.toUpperCase()),
  );
  if (!issue) return notFound();
  const slug = req.state.projects.find((p) => p.id === issue.projectId)?.slug ?? "app";
  return { issue, values: issueTagValues(issue, slug) };
}

function keyJson(key: string, values: StoredValue[], limit: number) {
  return {
    key,
    name: KEY_NAMES[key] ?? key,
    totalValues: values.reduce((a, v) => a + v.count, 0),
    uniqueValues: values.length,
    topValues: values.slice(0, limit).map((v) => valueJson(key, v)),
  };
}

function listKeys(req: FakeRequest): Response {
  const r = issueOr404(req);
  if (r instanceof Response) return r;
  const rawLimit = req.query.get("limit");
  const limit = rawLimit === null ? 10 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 0) return detail(400, "Invalid limit");
  const wanted = req.query.getAll("key");
  const keys = Object.keys(r.values).filter((k) => wanted.length === 0 || wanted.includes(k));
  return json(keys.map((k) => keyJson(k, r.values[k] as StoredValue[], limit)));
}

function oneKey(req: FakeRequest): Response {
  const r = issueOr404(req);
  if (r instanceof Response) return r;
  const values = r.values[req.params.key ?? ""];
  if (!values) return notFound();
  return json(keyJson(req.params.key as string, values, 9));
}

const SORTS: Record<string, (a: StoredValue, b: StoredValue) => number> = {
  count: (a, b) => a.count - b.count,
  date: (a, b) => a.lastSeen - b.lastSeen,
  age: (a, b) => a.firstSeen - b.firstSeen,
  id: (a, b) => a.value.localeCompare(b.value),
};

function listValues(req: FakeRequest): Response {
  const r = issueOr404(req);
  if (r instanceof Response) return r;
  const key = req.params.key ?? "";
  const values = r.values[key];
  if (!values) return notFound();
  const sort = req.query.get("sort") ?? "-id";
  const by = SORTS[sort.replace(/^-/, "")];
  if (!by) return detail(400, `Invalid sort: ${sort}`);
  const sorted = [...values].sort((a, b) => (sort.startsWith("-") ? by(b, a) : by(a, b)));
  return paginate(
    req,
    sorted.slice(0, 1000).map((v) => valueJson(key, v)),
    { sizeParam: "per_page", defaultSize: 100 },
  );
}

/** Routes of this module. */
export const tagRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/tags/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listKeys,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/tags/:key/",
    hosts: "region",
    scopes: ["event:read"],
    handler: oneKey,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/tags/:key/values/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listValues,
  },
];
