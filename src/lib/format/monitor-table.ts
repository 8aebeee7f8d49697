/** `monitor list` rendering: one row per monitor, its environments folded into one status. */
import type { Monitor } from "../api/monitors.ts";
import type { CellContext, ListView } from "../view/list.ts";
import { listTime } from "./time.ts";

/** Environment statuses from worst to best: a monitor shows the worst of its environments. */
const STATUS_ORDER = ["error", "timeout", "missed_checkin", "active", "ok"] as const;

/** A monitor's schedule as people write it: the crontab, or `every 10 minutes`. */
export function scheduleText(m: Monitor): string {
  const s = m.config.schedule;
  if (typeof s === "string") return s;
  if (Array.isArray(s)) return `every ${s[0]} ${s[1]}${s[0] === 1 ? "" : "s"}`;
  return "-";
}

/** The monitor's status: `disabled`, else the worst environment status (`muted` appended). */
export function monitorStatus(m: Monitor): string {
  let status = m.status === "active" ? "" : m.status;
  if (status === "") {
    const seen = m.environments.map((e) => e.status ?? "");
    status = STATUS_ORDER.find((s) => seen.includes(s)) ?? (seen.find((s) => s !== "") || "new");
  }
  return m.isMuted ? `${status} (muted)` : status;
}

function latest(values: (string | null | undefined)[], pick: "max" | "min"): string | undefined {
  const times = values.filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)));
  times.sort((a, b) => Date.parse(a) - Date.parse(b));
  return pick === "max" ? times.at(-1) : times[0];
}

/** The last check-in of any environment and the next one expected. */
export function checkInTimes(m: Monitor): { last: string | undefined; next: string | undefined } {
  return {
    last: latest(
      m.environments.map((e) => e.lastCheckIn),
      "max",
    ),
    next: latest(
      m.environments.map((e) => e.nextCheckIn),
      "min",
    ),
  };
}

/**
 * A monitor as `--json` (and markdown) gives it: the service's object plus what the table derives
 * from its environments, so no reader has to fold them again: `checkInStatus` (the table's
 * status), `schedule` as people write it (`scheduleText`), `lastCheckIn` and `nextCheckIn`.
 */
export function monitorDocument(m: Monitor): Monitor & {
  checkInStatus: string;
  scheduleText: string;
  lastCheckIn: string | null;
  nextCheckIn: string | null;
} {
  const { last, next } = checkInTimes(m);
  return {
    ...m,
    checkInStatus: monitorStatus(m),
    scheduleText: scheduleText(m),
    lastCheckIn: last ?? null,
    nextCheckIn: next ?? null,
  };
}

/** The next check-in: `in 5m` on a terminal while it is ahead, else the list time. */
function nextCell(m: Monitor, c: CellContext): string {
  const { next } = checkInTimes(m);
  if (next && c.tty && Date.parse(next) > c.now) return `in ${untilText(next, c.now)}`;
  return listTime(next, c.now, c.tty);
}

/** `monitor list`: one row per monitor, its environments folded into one status. */
export const MONITOR_LIST_VIEW: ListView<Monitor> = {
  name: "monitor list",
  id: "slug",
  document: monitorDocument,
  columns: () => [
    { header: "slug", cell: (m) => m.slug },
    { header: "name", flex: true, cell: (m) => m.name },
    { header: "schedule", cell: scheduleText },
    { header: "status", cell: monitorStatus },
    { header: "last check-in", cell: (m, c) => listTime(checkInTimes(m).last, c.now, c.tty) },
    { header: "next", cell: nextCell },
  ],
};

function untilText(iso: string, nowMs: number): string {
  const m = Math.max(1, Math.round((Date.parse(iso) - nowMs) / 60_000));
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h}h` : `${Math.round(h / 24)}d`;
}
