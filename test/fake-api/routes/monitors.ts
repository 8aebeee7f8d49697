/**
 * Cron monitors (API.md §18.3) and the envelope endpoint of sends by DSN (§18.4): envelopes are
 * parsed like Relay does (header line; per item a header with optional byte `length`, then the
 * payload), authenticated by the public key of the project in the path, and recorded; a check-in
 * with `monitor_config` creates or updates its monitor.
 */
import { FAKE_NOW_MS } from "../clock.ts";
import { detail, json, notFound } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";

/** A monitor of the fake, in the API's shape plus the owning project id. */
export interface FakeMonitor {
  id: string;
  slug: string;
  name: string;
  status: "active" | "disabled";
  isMuted: boolean;
  config: Record<string, unknown>;
  projectId: string;
  environments: { name: string; status: string; lastCheckIn: string | null; nextCheckIn: string | null }[];
}

/** One item of a received envelope. */
export interface ReceivedItem {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** One received envelope. */
export interface ReceivedEnvelope {
  projectId: string;
  header: Record<string, unknown>;
  items: ReceivedItem[];
}

interface MonitorStore {
  monitors: FakeMonitor[];
  envelopes: ReceivedEnvelope[];
}

const KEY = "monitors";
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;

function seed(): FakeMonitor[] {
  const env = (status: string, lastAgoMin: number | null, nextInMin: number | null) => ({
    name: "production",
    status,
    lastCheckIn: lastAgoMin === null ? null : iso(FAKE_NOW_MS - lastAgoMin * MIN),
    nextCheckIn: nextInMin === null ? null : iso(FAKE_NOW_MS + nextInMin * MIN),
  });
  const base = { status: "active" as const, isMuted: false, projectId: "300002" };
  return [
    {
      ...base,
      id: "a1b2c3d4-0000-4000-8000-000000000001",
      slug: "nightly-backup",
      name: "Nightly backup",
      config: {
        schedule_type: "crontab",
        schedule: "0 3 * * *",
        checkin_margin: 5,
        max_runtime: 30,
        timezone: "UTC",
      },
      environments: [env("ok", 9 * 60, 15 * 60)],
    },
    {
      ...base,
      id: "a1b2c3d4-0000-4000-8000-000000000002",
      slug: "sync-users",
      name: "Sync users",
      config: { schedule_type: "interval", schedule: [10, "minute"], checkin_margin: 1, max_runtime: 5 },
      environments: [env("ok", 24 * 60, null), env("error", 4, 6)],
    },
    {
      ...base,
      id: "a1b2c3d4-0000-4000-8000-000000000003",
      slug: "weekly-report",
      name: "Weekly report",
      status: "disabled",
      isMuted: true,
      config: { schedule_type: "crontab", schedule: "0 8 * * 1" },
      environments: [],
    },
  ];
}

/** The monitor data and received envelopes of a server (tests read and change it). */
export function monitorStore(state: FakeState): MonitorStore {
  let s = state.store.get(KEY) as MonitorStore | undefined;
  if (!s) {
    s = { monitors: seed(), envelopes: [] };
    state.store.set(KEY, s);
  }
  return s;
}

/** Forgets received envelopes and upserted monitors (back to the seed). */
export function resetMonitorStore(state: FakeState): void {
  state.store.delete(KEY);
}

/** Every item of a type received so far (e.g. "check_in", "event"), payloads only. */
export function receivedItems(state: FakeState, type: string): Record<string, unknown>[] {
  return monitorStore(state)
    .envelopes.flatMap((e) => e.items)
    .filter((i) => i.header.type === type)
    .map((i) => i.payload);
}

function listMonitors(req: FakeRequest): Response {
  const org = req.state.orgs.find((o) => o.slug === req.params.org);
  if (!org) return notFound();
  const projects = req.state.projects.filter((p) => p.org === org.slug);
  const body = monitorStore(req.state)
    .monitors.filter((m) => projects.some((p) => p.id === m.projectId))
    .map(({ projectId, ...m }) => {
      const p = projects.find((x) => x.id === projectId);
      return { ...m, project: { id: p?.id, slug: p?.slug, name: p?.name } };
    });
  return json(body);
}

/** Parses envelope bytes; a string says what is malformed. */
export function parseEnvelope(
  bytes: Uint8Array,
): { header: Record<string, unknown>; items: ReceivedItem[] } | string {
  const buf = Buffer.from(bytes);
  let pos = 0;
  const line = () => {
    const nl = buf.indexOf(10, pos);
    const end = nl < 0 ? buf.length : nl;
    const text = buf.subarray(pos, end).toString("utf8");
    pos = nl < 0 ? buf.length : nl + 1;
    return text;
  };
  const obj = (text: string) => {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
    return v as Record<string, unknown>;
  };
  try {
    const header = obj(line());
    const items: ReceivedItem[] = [];
    while (pos < buf.length) {
      const h = line();
      if (h.trim() === "") continue;
      const ih = obj(h);
      let payload: string;
      if (typeof ih.length === "number") {
        payload = buf.subarray(pos, pos + ih.length).toString("utf8");
        pos += ih.length;
        if (buf[pos] === 10) pos++;
      } else payload = line();
      items.push({ header: ih, payload: obj(payload) });
    }
    return { header, items };
  } catch (err) {
    return `invalid envelope: ${(err as Error).message}`;
  }
}

function upsertMonitor(store: MonitorStore, projectId: string, checkIn: Record<string, unknown>): void {
  const config = checkIn.monitor_config as Record<string, unknown> | undefined;
  const slug = String(checkIn.monitor_slug);
  const existing = store.monitors.find((m) => m.slug === slug && m.projectId === projectId);
  if (!config) return;
  const schedule = config.schedule as { type: string; value: unknown; unit?: string };
  const apiConfig = {
    schedule_type: schedule.type,
    schedule: schedule.type === "interval" ? [schedule.value, schedule.unit] : schedule.value,
    checkin_margin: config.checkin_margin ?? null,
    max_runtime: config.max_runtime ?? null,
    timezone: config.timezone ?? "UTC",
  };
  if (existing) existing.config = apiConfig;
  else {
    store.monitors.push({
      id: crypto.randomUUID(),
      slug,
      name: slug,
      status: "active",
      isMuted: false,
      projectId,
      config: apiConfig,
      environments: [],
    });
  }
}

function sentryKey(req: FakeRequest): string | undefined {
  const auth = req.headers.get("x-sentry-auth") ?? "";
  return /sentry_key=([0-9a-f]{32})/i.exec(auth)?.[1] ?? req.query.get("sentry_key") ?? undefined;
}

async function receiveEnvelope(req: FakeRequest, raw: Uint8Array): Promise<Response> {
  const project = req.state.projects.find((p) => p.id === req.params.projectId);
  const key = sentryKey(req);
  if (!key) return json({ detail: "missing authorization information" }, 401);
  if (!project || project.publicKey !== key.toLowerCase()) return json({ detail: "invalid api key" }, 401);
  const type = req.headers.get("content-type") ?? "";
  if (type !== "" && type !== "application/x-sentry-envelope") return detail(415, "unsupported content type");
  const parsed = parseEnvelope(raw);
  if (typeof parsed === "string") return detail(400, parsed);
  const store = monitorStore(req.state);
  store.envelopes.push({ projectId: project.id, ...parsed });
  for (const item of parsed.items) {
    if (item.header.type === "check_in") upsertMonitor(store, project.id, item.payload);
  }
  const id = parsed.header.event_id;
  return json(typeof id === "string" ? { id } : {});
}

/** Routes of this module. */
export const monitorRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/monitors/",
    hosts: "region",
    scopes: ["org:read"],
    handler: listMonitors,
  },
  {
    method: "POST",
    pattern: "/api/:projectId/envelope/",
    hosts: "any",
    handler: (req) => receiveEnvelope(req, new TextEncoder().encode(req.body)),
  },
];
