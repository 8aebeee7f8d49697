/** `monitor list` rendering: one row per monitor, its environments folded into one status. */
import type { Monitor } from "../api/monitors.ts";
import { formatTable } from "./table.ts";
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

/** The table (terminal: headers, relative times) or TSV rows (piped: ISO times). */
export function formatMonitorTable(
  monitors: readonly Monitor[],
  opts: { width: number | undefined; nowMs: number },
): string[] {
  const tty = opts.width !== undefined;
  const rows = monitors.map((m) => {
    const { last, next } = checkInTimes(m);
    const nextText =
      next && tty && Date.parse(next) > opts.nowMs ? `in ${untilText(next, opts.nowMs)}` : null;
    return [
      m.slug,
      m.name,
      scheduleText(m),
      monitorStatus(m),
      listTime(last, opts.nowMs, tty),
      nextText ?? listTime(next, opts.nowMs, tty),
    ];
  });
  return formatTable(
    [
      { header: "slug" },
      { header: "name", flex: true },
      { header: "schedule" },
      { header: "status" },
      { header: "last check-in" },
      { header: "next" },
    ],
    rows,
    opts.width,
  );
}

function untilText(iso: string, nowMs: number): string {
  const m = Math.max(1, Math.round((Date.parse(iso) - nowMs) / 60_000));
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h}h` : `${Math.round(h / 24)}d`;
}
