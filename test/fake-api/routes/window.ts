/**
 * Sentry's reading of `start`/`end` (API.md §22.1, `get_date_range_from_params` and
 * `parse_datetime_string`): `statsPeriod` wins silently; otherwise both are required, each in one
 * of the accepted forms (a trailing `Z` or `+HH:MM` dropped, naive = UTC), and start before end.
 */
import { detail } from "../http.ts";
import type { FakeRequest } from "../types.ts";

/** Parses one value as the service does, or undefined. */
function parseServerTime(raw: string): number | undefined {
  const text = raw.replace(/Z$/, "").replace(/\+\d{2}:\d{2}$/, "");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/.test(text)) return Date.parse(`${text}Z`);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  return undefined;
}

/** The absolute window asked for (ms), none when `statsPeriod` or nothing was sent, or the 400. */
export function absoluteWindow(req: FakeRequest): { startMs: number; endMs: number } | undefined | Response {
  if (req.query.get("statsPeriod")) return undefined;
  const start = req.query.get("start");
  const end = req.query.get("end");
  if (start === null && end === null) return undefined;
  if (start === null || end === null) return detail(400, "start and end are both required");
  const startMs = parseServerTime(start);
  if (startMs === undefined) return detail(400, `${start} is not a valid ISO8601 date query`);
  const endMs = parseServerTime(end);
  if (endMs === undefined) return detail(400, `${end} is not a valid ISO8601 date query`);
  if (startMs >= endMs) return detail(400, "start must be before end");
  return { startMs, endMs };
}
