/** Rendering of a setup report: one line per change on stdout, the shell hint on stderr. */
import type { TrackerContext } from "../../context.ts";
import { writeJson, writeLines, writeTip } from "../output.ts";
import type { SetupReport } from "./run.ts";
import { pathLine } from "./shell-path.ts";

function tilde(ctx: TrackerContext, path: string): string {
  return path.startsWith(`${ctx.homeDir}/`) ? `~${path.slice(ctx.homeDir.length)}` : path;
}

/** The human-readable lines of a setup report. */
export function formatSetupReport(ctx: TrackerContext, r: SetupReport): string[] {
  const lines: string[] = [];
  const dir = tilde(ctx, r.path.dir);
  switch (r.path.status) {
    case "skipped":
      lines.push(`PATH: not changed (${r.path.reason})`);
      break;
    case "already_on_path":
      lines.push(`PATH: ${dir} is already on PATH`);
      break;
    case "no_shell":
      lines.push(`PATH: not changed (${r.path.reason}); add ${dir} to PATH yourself`);
      break;
    default:
      break;
  }
  for (const f of r.path.files) {
    const file = tilde(ctx, f.file);
    if (f.change === "unchanged") lines.push(`PATH: ${file} already adds ${dir}`);
    else lines.push(`PATH: ${f.change === "created" ? "created" : "updated"} ${file} to add ${dir}`);
  }
  for (const s of r.skills) {
    const where = tilde(ctx, s.path);
    if (s.status === "skipped") lines.push(`Skill: skipped ${where} (${s.reason})`);
    else if (s.status === "failed") lines.push(`Skill: failed ${where} (${s.reason})`);
    else lines.push(`Skill: ${s.status} ${where}`);
  }
  if (r.method) lines.push(`Install method: ${r.method} (recorded)`);
  const link = r.sentryCliLink;
  if (link) lines.push(`sentry-cli: ${link.status} ${tilde(ctx, link.path)} → ${tilde(ctx, link.target)}`);
  return lines;
}

/** Prints a setup report (JSON document or lines) plus a restart hint when PATH changed. */
export function writeOutput(ctx: TrackerContext, r: SetupReport, json: boolean): void {
  if (json) {
    writeJson(ctx, r);
    return;
  }
  writeLines(ctx, formatSetupReport(ctx, r));
  if (r.path.files.some((f) => f.change !== "unchanged" && f.shell !== "github")) {
    writeTip(ctx, `Open a new shell, or run: ${pathLine("bash", r.path.dir)}`);
  }
  writeTip(ctx, MCP_TIP);
}

/** Where agents that speak MCP instead of reading the skill file find their configuration. */
export const MCP_TIP = "MCP clients: `tracker mcp --print-config` prints the server configuration to add.";
