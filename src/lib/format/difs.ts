/** Human renderings of the debug-file commands (pure: lines in, lines out). */
import type { DifDryRun } from "../debug-files/dry-run.ts";
import type { DifUploadReport } from "../debug-files/upload.ts";

/** A byte count as KiB/MiB. */
export function formatSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

const STATE_WORD: Record<string, string> = {
  ok: "OK",
  created: "UPLOADED",
  assembling: "PROCESSING",
  error: "ERROR",
  not_found: "MISSING",
};

/** One line per file (state, debug ID, arch, format, size, path), then the chunk summary. */
export function formatDifUpload(r: DifUploadReport): string[] {
  const lines = r.files.map((f) => {
    const word = STATE_WORD[f.state] ?? f.state.toUpperCase();
    const detail = f.state === "error" && f.detail ? ` — ${f.detail}` : "";
    return `${word.padEnd(10)} ${f.debugId ?? "-"}  ${f.arch} ${f.format}  ${formatSize(f.size)}  ${f.path}${detail}`;
  });
  lines.push(
    r.unchanged
      ? `All ${r.files.length} file(s) are on ${r.org}/${r.project} already; nothing was sent.`
      : `Chunks: ${r.chunks.sent} sent, ${r.chunks.skipped} already on the service (${r.org}/${r.project})`,
  );
  return lines;
}

/**
 * What a dry run would send, said before its request (lib/format/dry-run.ts shows the request):
 * each file with its size and chunk count, then how many files and bytes in all.
 */
export function formatDifDryRun(plan: DifDryRun): string[] {
  const lines = plan.files.map(
    (f) =>
      `${f.debugId ?? "-"}  ${f.arch} ${f.format}  ${formatSize(f.size)} (${f.chunks} chunk${f.chunks === 1 ? "" : "s"})  ${f.path}`,
  );
  const total = plan.files.reduce((n, f) => n + f.size, 0);
  lines.push(`${plan.files.length} file(s), ${formatSize(total)}`);
  return lines;
}
