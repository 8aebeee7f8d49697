/**
 * Seed data of the explore datasets (API.md 17.1, 17.3): spans derived from the seeded
 * transactions of traces.ts (each a segment span with two child spans, so trace ids agree across
 * commands), and error events derived from the seeded issues of issues.ts (one to three events
 * each). Releases and environments are deterministic; times sit relative to FAKE_NOW_MS.
 */
import type { FakeState } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { issueStore } from "./issues.ts";
import { traceStore } from "./traces.ts";

/** One stored item: the wire fields, plus the instant, org and project id it is filtered by. */
export interface ExploreItem {
  ms: number;
  org: string;
  projectId: string;
  fields: Record<string, unknown>;
}

/** The explore data of a server (built on first use; tests may push items). */
export interface ExploreStore {
  spans: ExploreItem[];
  errors: ExploreItem[];
}

/** Field type and unit per dataset, as `meta.fields` / `meta.units` report them. */
export const FIELD_TYPES: Record<"spans" | "errors", Record<string, [string, string?]>> = {
  spans: {
    id: ["string"],
    span_id: ["string"],
    parent_span: ["string"],
    "span.op": ["string"],
    "span.description": ["string"],
    description: ["string"],
    "span.duration": ["duration", "millisecond"],
    "span.self_time": ["duration", "millisecond"],
    "span.status": ["string"],
    timestamp: ["date"],
    "precise.start_ts": ["number"],
    "precise.finish_ts": ["number"],
    project: ["string"],
    "project.id": ["integer"],
    transaction: ["string"],
    trace: ["string"],
    is_transaction: ["boolean"],
    release: ["string"],
    environment: ["string"],
  },
  errors: {
    id: ["string"],
    title: ["string"],
    message: ["string"],
    level: ["string"],
    issue: ["string"],
    "issue.id": ["integer"],
    project: ["string"],
    "project.id": ["integer"],
    environment: ["string"],
    release: ["string"],
    timestamp: ["date"],
    transaction: ["string"],
    trace: ["string"],
    culprit: ["string"],
    "error.type": ["string"],
    "error.value": ["string"],
    "error.handled": ["boolean"],
  },
};

const STORE_KEY = "explore";
const DAY_MS = 86_400_000;

/** Child span descriptions per transaction name (db query, then an outgoing call). */
const CHILDREN: Record<string, [string, string, string]> = {
  "GET /api/users": ["SELECT * FROM users WHERE org_id = $1", "cache.get", "users:org"],
  "POST /api/orders": [
    "INSERT INTO orders VALUES ($1, $2)",
    "http.client",
    "POST https://payments.example.com/charge",
  ],
  "GET /api/products/:id": ["SELECT * FROM products WHERE id = $1", "cache.get", "product:detail"],
  "GET /checkout": ["SELECT * FROM carts WHERE id = $1", "http.client", "GET https://tax.example.com/rates"],
  "PUT /api/cart": ["UPDATE carts SET items = $1 WHERE id = $2", "cache.set", "cart:session"],
  "GET /api/search": [
    "SELECT id FROM products WHERE name ILIKE $1",
    "http.client",
    "GET http://search.internal/q",
  ],
  "DELETE /api/sessions": ["DELETE FROM sessions WHERE id = $1", "cache.delete", "session"],
  "GET /health": ["SELECT 1", "cache.get", "health"],
};

/** Hex of a given length from a seed (deterministic). */
export function seededHex(seed: string, len: number): string {
  let out = "";
  for (let i = 0; out.length < len; i++) out += Bun.hash(`${seed}#${i}`).toString(16).padStart(16, "0");
  return out.slice(0, len);
}

function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** The release a project ran at an instant: newer releases in the last days. */
export function releaseAt(slug: string, ms: number): string {
  const age = FAKE_NOW_MS - ms;
  return age < DAY_MS ? `${slug}@2.4.0` : age < 3 * DAY_MS ? `${slug}@2.3.1` : `${slug}@2.3.0`;
}

function seedSpans(state: FakeState): ExploreItem[] {
  const out: ExploreItem[] = [];
  for (const r of traceStore(state).rows) {
    const segment = seededHex(`segment:${r.id}`, 16);
    const start = r.timestampMs - r.durationMs;
    const [query, op, call] = CHILDREN[r.transaction] ?? ["SELECT 1", "cache.get", "misc"];
    const dbMs = Math.max(1, Math.round(r.durationMs * 0.4));
    const callMs = Math.max(1, Math.round(r.durationMs * 0.2));
    const common = {
      project: r.project,
      "project.id": Number(r.projectId),
      transaction: r.transaction,
      trace: r.trace,
      release: releaseAt(r.project, r.timestampMs),
      environment: Number(Bun.hash(r.id) % 5n) === 0 ? "staging" : "production",
    };
    const span = (
      id: string,
      parent: string | null,
      o: string,
      desc: string,
      at: number,
      ms: number,
      seg: boolean,
    ) => ({
      ms: at + ms,
      org: r.org,
      projectId: r.projectId,
      fields: {
        ...common,
        id,
        span_id: id,
        parent_span: parent,
        "span.op": o,
        "span.description": desc,
        description: desc,
        "span.duration": ms,
        "span.self_time": seg ? ms - dbMs - callMs : ms,
        "span.status": seg && r.durationMs > 2000 ? "internal_error" : "ok",
        timestamp: isoSeconds(at + ms),
        "precise.start_ts": at / 1000,
        "precise.finish_ts": (at + ms) / 1000,
        is_transaction: seg,
      },
    });
    out.push(span(segment, null, "http.server", r.transaction, start, r.durationMs, true));
    out.push(span(seededHex(`db:${r.id}`, 16), segment, "db.query", query, start + 1, dbMs, false));
    out.push(span(seededHex(`call:${r.id}`, 16), segment, op, call, start + 2 + dbMs, callMs, false));
  }
  return out.sort((a, b) => b.ms - a.ms);
}

function seedErrors(state: FakeState): ExploreItem[] {
  const out: ExploreItem[] = [];
  const names = Object.keys(CHILDREN);
  for (const x of issueStore(state).issues) {
    const p = state.projects.find((q) => q.id === x.projectId);
    if (!p) continue;
    const n = 1 + (Number(x.id) % 3);
    for (let k = 0; k < n; k++) {
      const ms = x.lastSeen - k * 3 * 3_600_000;
      out.push({
        ms,
        org: x.org,
        projectId: x.projectId,
        fields: {
          id: seededHex(`error:${x.id}:${k}`, 32),
          title: x.title,
          message: x.title,
          level: x.level,
          issue: x.shortId,
          "issue.id": Number(x.id),
          project: p.slug,
          "project.id": Number(p.id),
          environment: x.environment,
          release: releaseAt(p.slug, ms),
          timestamp: isoSeconds(ms),
          transaction: names[Number(x.id) % names.length],
          trace: seededHex(`error-trace:${x.id}:${k}`, 32),
          culprit: x.culprit,
          "error.type": x.metadata.type,
          "error.value": x.metadata.value,
          "error.handled": !x.isUnhandled,
        },
      });
    }
  }
  return out.sort((a, b) => b.ms - a.ms);
}

/** The explore data of a server (seeded on first use from the trace and issue stores). */
export function exploreStore(state: FakeState): ExploreStore {
  let s = state.store.get(STORE_KEY) as ExploreStore | undefined;
  if (!s) {
    s = { spans: seedSpans(state), errors: seedErrors(state) };
    state.store.set(STORE_KEY, s);
  }
  return s;
}
