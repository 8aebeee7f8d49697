/** Human units for durations in tables and trees. */

/** A duration in milliseconds as a short human string: 0.42ms, 7.3ms, 245ms, 9.88s, 2m 05s, 1h 02m. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "-";
  if (ms < 1) return `${ms.toFixed(2)}ms`;
  if (ms < 10) return `${Number(ms.toFixed(1))}ms`;
  if (ms < 999.5) return `${Math.round(ms)}ms`;
  if (ms < 9995) return `${(ms / 1000).toFixed(2)}s`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)}s`;
  const totalSec = Math.round(ms / 1000);
  if (totalSec < 3600) return `${Math.floor(totalSec / 60)}m ${String(totalSec % 60).padStart(2, "0")}s`;
  const totalMin = Math.round(ms / 60_000);
  return `${Math.floor(totalMin / 60)}h ${String(totalMin % 60).padStart(2, "0")}m`;
}
