/**
 * The window and environment flags of the list commands (`--period`/`-t`, `--start`, `--end`,
 * `--environment`/`-e`), one spec each so every command takes them the same way (API.md §22.1-2).
 */
import { ValidationError } from "./errors.ts";
import { parseInstantFlag, parsePeriod, type WindowFlags } from "./time-window.ts";

/** Flags of a command that takes a window and environments. */
export interface FilterFlags extends WindowFlags {
  readonly environment?: readonly string[];
}

/** The help sentence every command with a window carries. */
export const WINDOW_HELP =
  "-t/--period takes a duration (30m, 24h, 14d, 2w) or an absolute window: 2026-11-20T14:00..2026-11-20T15:30, 2026-11-20..2026-11-21 (a date alone starts at 00:00 and ends at 23:59:59.999), >=2026-11-20 or >2026-11-20 (until now), <=2026-11-20 or <2026-11-20 (the 90 days before); times without a zone are UTC. --start/--end take the same times or a time ago (-2h); a lone --start ends now. An absolute window is sent as start/end (UTC) instead of statsPeriod, and -c last keys on it.";

/** The help sentence every command with `--environment` carries. */
export const ENVIRONMENT_HELP =
  "-e/--environment (repeatable) keeps one or more environments; without it, the default of `tracker defaults set --environment` applies.";

/** Parses an environment name (Sentry forbids newlines and slashes; empty names are useless). */
export function parseEnvironment(raw: string): string {
  const text = raw.trim();
  if (text === "" || text.length > 64 || /[\n\r\f/]/.test(text)) {
    throw new ValidationError(
      `--environment must be an environment name (1-64 characters, no '/' or newline), got '${raw}'.`,
      "environment",
    );
  }
  return text;
}

/** The `--period`, `--start` and `--end` flag specs; `fallback` is the command's default window. */
export function windowFlags(fallback: string) {
  return {
    period: {
      kind: "parsed",
      placeholder: "<period>",
      parse: parsePeriod,
      optional: true,
      brief: `Window: 30m, 24h, 14d… or START..END, >=DATE, <DATE (default ${fallback})`,
    },
    start: {
      kind: "parsed",
      placeholder: "<time>",
      parse: parseInstantFlag("start"),
      optional: true,
      brief: "Window start: ISO 8601 (UTC unless zoned) or a time ago (-2h)",
    },
    end: {
      kind: "parsed",
      placeholder: "<time>",
      parse: parseInstantFlag("end"),
      optional: true,
      brief: "Window end: ISO 8601 or a time ago (default now)",
    },
  } as const;
}

/** The `--environment` (`-e`) flag spec: repeatable. */
export const environmentFlag = {
  kind: "parsed",
  placeholder: "<name>",
  parse: parseEnvironment,
  variadic: true,
  optional: true,
  brief: "Only this environment (repeatable)",
} as const;
