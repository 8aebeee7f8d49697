/** Replays (API.md §22.9) for people and agents: rows, the session's breadcrumbs, the table and the view. */
import * as v from "valibot";
import type { ApiReplay, RrwebEvent } from "../api/replays.ts";
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
import { formatTable } from "./table.ts";
import { isoFromMs, isoSeconds, listTime } from "./time.ts";

/** One replay as `replay list --json` prints it. */
export interface ReplayRow {
  id: string;
  projectId: string | null;
  user: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Seconds. */
  duration: number | null;
  url: string | null;
  urls: number;
  errors: number;
  rageClicks: number;
  environment: string | null;
  browser: string | null;
  os: string | null;
}

/** One breadcrumb of the session. */
export interface ReplayCrumb {
  timestamp: string | null;
  category: string;
  level: string | null;
  message: string;
}

/** `replay view --json`: the row, every URL, the error and trace ids, releases and the breadcrumbs. */
export interface ReplayView extends ReplayRow {
  org: string;
  project: string;
  allUrls: string[];
  errorIds: string[];
  traceIds: string[];
  releases: string[];
  breadcrumbs: ReplayCrumb[];
}

const named = (n: { name?: string | null; version?: string | null } | null | undefined) =>
  n?.name ? `${n.name}${n.version ? ` ${n.version}` : ""}` : null;

/** The JSON row of a replay. */
export function toReplayRow(r: ApiReplay): ReplayRow {
  const u = r.user;
  return {
    id: r.id,
    projectId: r.project_id === undefined || r.project_id === null ? null : String(r.project_id),
    user: u?.display_name || u?.email || u?.username || u?.ip || u?.id || null,
    startedAt: r.started_at ?? null,
    finishedAt: r.finished_at ?? null,
    duration: r.duration ?? null,
    url: r.urls?.[0] ?? null,
    urls: r.count_urls ?? r.urls?.length ?? 0,
    errors: r.count_errors ?? 0,
    rageClicks: r.count_rage_clicks ?? 0,
    environment: r.environment ?? null,
    browser: named(r.browser),
    os: named(r.os),
  };
}

const Crumb = v.looseObject({
  tag: v.literal("breadcrumb"),
  payload: v.looseObject({
    timestamp: v.optional(v.nullable(v.number())),
    category: v.optional(v.nullable(v.string())),
    message: v.optional(v.nullable(v.string())),
    level: v.optional(v.nullable(v.string())),
    data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  }),
});

/** The breadcrumbs of a recording (custom rrweb events, type 5), in time order. */
export function replayBreadcrumbs(segments: readonly (readonly RrwebEvent[])[]): ReplayCrumb[] {
  const out: { at: number; crumb: ReplayCrumb }[] = [];
  for (const e of segments.flat()) {
    if (e.type !== 5) continue;
    const parsed = v.safeParse(Crumb, e.data);
    if (!parsed.success) continue;
    const p = parsed.output.payload;
    // Breadcrumb payloads carry seconds; the rrweb event milliseconds.
    const ms = typeof p.timestamp === "number" ? p.timestamp * 1000 : (e.timestamp ?? Number.NaN);
    const to = typeof p.data?.to === "string" ? p.data.to : "";
    out.push({
      at: ms,
      crumb: {
        timestamp: isoFromMs(ms),
        category: p.category ?? "default",
        level: p.level ?? null,
        message: p.message || to,
      },
    });
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.crumb);
}

/** The replay table: WHEN, ID, USER, DURATION, ERRORS, URL (flex). */
export function formatReplayTable(
  rows: readonly ReplayRow[],
  opts: { width?: number; nowMs: number },
): string[] {
  return formatTable(
    [
      { header: "When" },
      { header: "ID" },
      { header: "User" },
      { header: "Duration", align: "right" },
      { header: "Errors", align: "right" },
      { header: "URL", flex: true },
    ],
    rows.map((r) => [
      listTime(r.startedAt, opts.nowMs, opts.width !== undefined),
      r.id,
      oneLine(r.user ?? "anonymous"),
      formatDuration(r.duration === null ? null : r.duration * 1000),
      String(r.errors),
      oneLine(r.url ?? "-"),
    ]),
    opts.width,
  );
}

/** The human view of a replay and its session activity. */
export function formatReplayView(r: ReplayView): string[] {
  const lines = [
    `Replay ${r.id} (${r.org}/${r.project})`,
    "",
    `  User:        ${oneLine(r.user ?? "anonymous")}`,
    `  Started:     ${isoSeconds(r.startedAt)}`,
    `  Duration:    ${formatDuration(r.duration === null ? null : r.duration * 1000)}`,
    `  Errors:      ${r.errors}${r.errorIds.length ? ` (${r.errorIds.join(", ")})` : ""}`,
    `  Environment: ${oneLine(r.environment ?? "-")}`,
    `  Browser:     ${oneLine(r.browser ?? "-")}${r.os ? ` on ${oneLine(r.os)}` : ""}`,
    `  Releases:    ${r.releases.length ? oneLine(r.releases.join(", ")) : "-"}`,
  ];
  if (r.allUrls.length) {
    lines.push("", "Pages");
    for (const u of r.allUrls) lines.push(`  ${oneLine(u)}`);
  }
  lines.push("", r.breadcrumbs.length ? "Activity" : "Activity: none recorded");
  for (const c of r.breadcrumbs) {
    const time = c.timestamp ? c.timestamp.slice(11, 19) : "--:--:--";
    lines.push(`  ${time}  ${oneLine(c.category).padEnd(12)}  ${oneLine(c.message)}`);
  }
  return lines;
}
