/** Replays (API.md §22.9) for people and agents: rows, the session's breadcrumbs, and their view descriptions. */
import * as v from "valibot";
import type { ApiReplay, RrwebEvent } from "../api/replays.ts";
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
import type { DocView } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";
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

const duration = (r: ReplayRow) => formatDuration(r.duration === null ? null : r.duration * 1000);

/** `replay list`: WHEN, ID, USER, DURATION, ERRORS, URL (flex); a row's document is its JSON row. */
export const REPLAY_LIST_VIEW: ListView<ReplayRow> = {
  name: "replay list",
  id: "id",
  document: (r) => r,
  columns: () => [
    { header: "When", cell: (r, c) => listTime(r.startedAt, c.now, c.tty) },
    { header: "ID", cell: (r) => r.id },
    { header: "User", cell: (r) => oneLine(r.user ?? "anonymous") },
    { header: "Duration", align: "right", cell: duration },
    { header: "Errors", align: "right", cell: (r) => String(r.errors) },
    { header: "URL", flex: true, cell: (r) => oneLine(r.url ?? "-") },
  ],
};

/** The replay's facts, each on a `Label: value` line. */
function aboutLines(r: ReplayView): string[] {
  return [
    `  User:        ${oneLine(r.user ?? "anonymous")}`,
    `  Started:     ${isoSeconds(r.startedAt)}`,
    `  Duration:    ${duration(r)}`,
    `  Errors:      ${r.errors}${r.errorIds.length ? ` (${r.errorIds.join(", ")})` : ""}`,
    `  Environment: ${oneLine(r.environment ?? "-")}`,
    `  Browser:     ${oneLine(r.browser ?? "-")}${r.os ? ` on ${oneLine(r.os)}` : ""}`,
    `  Releases:    ${r.releases.length ? oneLine(r.releases.join(", ")) : "-"}`,
  ];
}

/** The session's activity: a time, the category and the message of each breadcrumb. */
function activityLines(r: ReplayView): string[] {
  if (!r.breadcrumbs.length) return ["Activity: none recorded"];
  return [
    "Activity",
    ...r.breadcrumbs.map((c) => {
      const time = c.timestamp ? c.timestamp.slice(11, 19) : "--:--:--";
      return `  ${time}  ${oneLine(c.category).padEnd(12)}  ${oneLine(c.message)}`;
    }),
  ];
}

/**
 * `replay view`: the title line, the replay's facts, the pages it visited and its activity. The
 * text's `Pages` and `Activity` lines open their blocks (not headings: plain, as they always were);
 * under a size bound the markdown drops the oldest breadcrumbs first, then the later pages.
 */
export const REPLAY_VIEW: DocView<ReplayView> = {
  name: "replay view",
  id: "id",
  document: (r) => r,
  sections: (r) => [
    { block: { kind: "lines", lines: [`Replay ${r.id} (${r.org}/${r.project})`] } },
    { block: { kind: "lines", lines: aboutLines(r) } },
    {
      block: {
        kind: "lines",
        lines: r.allUrls.length ? ["Pages", ...r.allUrls.map((u) => `  ${oneLine(u)}`)] : [],
      },
      priority: (i) => (i < 2 ? 0 : 2 + i / 1000),
      label: "pages",
    },
    {
      block: { kind: "lines", lines: activityLines(r) },
      priority: (i, n) => (i === 0 ? 0 : 3 + (n - i) / 1000),
      label: "breadcrumbs",
    },
  ],
};
