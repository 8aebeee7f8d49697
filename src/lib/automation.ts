/**
 * Agent and CI mode. Agents drive tracker in pseudo-terminals, where a pager, a spinner or a
 * prompt would hang them or fill their context with redraws; CI logs are no place for them either.
 * When `CI`, `TRACKER_PROMPT_DISABLED=1` or a known agent's variable is set, tracker never opens
 * a pager, never shows a spinner and never prompts, even on a terminal: a change that needs
 * confirmation then needs `--yes`.
 */
import type { TrackerContext } from "../context.ts";

/** Variables set by coding agents' shells (any non-empty value but 0/false). */
export const AGENT_VARIABLES = [
  "CLAUDECODE",
  "CURSOR_AGENT",
  "CODEX_SANDBOX",
  "GEMINI_CLI",
  "AGENT",
] as const;

function isSet(v: string | undefined): boolean {
  if (v === undefined) return false;
  const t = v.trim().toLowerCase();
  return t !== "" && t !== "0" && t !== "false";
}

/** The variable that puts this run in agent/CI mode, or undefined for an interactive run. */
export function automationReason(env: Record<string, string | undefined>): string | undefined {
  if (isSet(env.TRACKER_PROMPT_DISABLED)) return "TRACKER_PROMPT_DISABLED";
  if (isSet(env.CI)) return "CI";
  return AGENT_VARIABLES.find((name) => isSet(env[name]));
}

/** A person at a terminal may be asked (stdin and stderr are terminals, not agent/CI mode). */
export function canPrompt(ctx: TrackerContext): boolean {
  return ctx.isStdinTTY && ctx.isStderrTTY && automationReason(ctx.env) === undefined;
}

/** Pagers and spinners may run (stderr or stdout is a terminal, not agent/CI mode). */
export function canAnimate(ctx: TrackerContext): boolean {
  return automationReason(ctx.env) === undefined;
}

/** TRACKER_FORCE_TTY=1: behave as on a terminal (tests, recordings), whatever the streams are. */
export function forcedTty(env: Record<string, string | undefined>): boolean {
  return isSet(env.TRACKER_FORCE_TTY);
}
