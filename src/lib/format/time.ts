/** Timestamps for human output: relative ("3h ago") on a terminal, ISO seconds when piped. */

/** How long ago an ISO time was, relative to `now` (ms): `just now`, `5m ago`, `3h ago`, `2d ago`, `4mo ago`, `1y ago`. */
export function relativeTime(iso: string | null | undefined, now: number): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t)) return "-";
  const s = Math.floor((now - t) / 1000);
  if (s < 0) return "in the future";
  if (s < 60) return "just now";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ago`;
  const d = Math.floor(h / 24);
  if (d < 30) return `${d}d ago`;
  if (d < 365) return `${Math.floor(d / 30)}mo ago`;
  return `${Math.floor(d / 365)}y ago`;
}

/** An ISO time shortened to whole seconds in UTC (`2026-01-15T11:55:59Z`), for piped output. */
export function isoSeconds(iso: string | null | undefined): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? "-" : `${new Date(t).toISOString().slice(0, 19)}Z`;
}

/** Like isoSeconds, for text from the API: unparsable text is shown as it is rather than as `-`. */
export function formatIsoSeconds(text: string): string {
  return Number.isNaN(Date.parse(text)) ? text : isoSeconds(text);
}

const MONTH_MS = 30 * 86_400_000;

/** Like relativeTime within 30 days; older times as their date (`2025-11-01`); unparsable text as it is. */
export function formatRelativeTime(text: string, nowMs: number): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  return nowMs - ms >= MONTH_MS ? new Date(ms).toISOString().slice(0, 10) : relativeTime(text, nowMs);
}
