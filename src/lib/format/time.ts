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

/** An ISO time shortened to whole seconds in UTC (`2026-01-15T11:55:59Z`, RFC 3339), for piped output. */
export function isoSeconds(iso: string | null | undefined): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t)) return "-";
  const text = new Date(t).toISOString();
  // Years outside 0000-9999 have a signed six-digit form that RFC 3339 cannot carry.
  return text.length === 24 ? `${text.slice(0, 19)}Z` : (iso ?? "-");
}

/**
 * The one time style of list columns: relative on a terminal (`5m ago`, minute precision), RFC
 * 3339 seconds when piped; text the API sent that is not a time is shown as it is, a missing one
 * as `-`. `--json` always carries the service's absolute value.
 */
export function listTime(text: string | null | undefined, nowMs: number, tty: boolean): string {
  if (!text) return "-";
  if (Number.isNaN(Date.parse(text))) return text;
  return tty ? relativeTime(text, nowMs) : isoSeconds(text);
}

/**
 * A time in Unix milliseconds as ISO 8601 (`2026-01-15T11:55:59.000Z`), or null when it is not a
 * time a person can read: not finite, beyond what Date holds, or outside the years 0000-9999
 * (servers and stored rows can carry anything; `new Date(x).toISOString()` throws on those).
 */
export function isoFromMs(ms: number | null | undefined): string | null {
  if (typeof ms !== "number" || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  const text = new Date(ms).toISOString();
  return text.length === 24 ? text : null;
}
