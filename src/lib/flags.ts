/**
 * Flag specs and pure parsers shared by the command specs. Parsers throw ValidationError naming
 * the allowed values; they never return NaN or undefined.
 */
import { LOG_LEVELS, type LogLevel } from "./env.ts";
import { ValidationError } from "./errors.ts";

// The time values have one grammar, in time-window.ts; specs keep importing them from here.
export { parsePeriod, parseSince } from "./time-window.ts";

/** Flags every command accepts. */
export interface GlobalFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly logLevel?: LogLevel;
}

/** Stricli specs of the global flags; spread into every command's `flags`. */
export const globalFlags = {
  json: { kind: "boolean", default: false, hidden: true, brief: "Print one JSON document on stdout" },
  verbose: { kind: "boolean", default: false, hidden: true, brief: "Same as --log-level debug" },
  logLevel: {
    kind: "enum",
    values: LOG_LEVELS,
    optional: true,
    hidden: true,
    brief: "Log detail on stderr: error, warn, info (default), debug, trace",
  },
} as const;

/** Parses a whole number within [min, max]. */
export function parseIntInRange(raw: string, name: string, min: number, max: number): number {
  const text = raw.trim();
  if (!/^[+]?\d+$/.test(text)) {
    throw new ValidationError(`--${name} must be a whole number from ${min} to ${max}, got '${raw}'.`, name);
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ValidationError(`--${name} must be from ${min} to ${max}, got ${text}.`, name);
  }
  return n;
}

/** A `--limit` flag spec with its range and default. */
export function limitFlag(opts: { min: number; max: number; fallback: number }) {
  return {
    kind: "parsed",
    placeholder: "<count>",
    parse: (raw: string) => parseIntInRange(raw, "limit", opts.min, opts.max),
    default: String(opts.fallback),
    brief: `Number of results (${opts.min}-${opts.max})`,
  } as const;
}

/** Default `--period` of issue searches (`issue list`, query-wide changes, `issue events`). */
export const DEFAULT_PERIOD = "90d";

/**
 * Parses a pagination cursor: `last`, Sentry's opaque `<value>:<offset>:<is_prev>` form, or one
 * tracker printed for a listing cut short by a size bound (`<cursor>@<rows to skip>`, `@<n>`).
 */
export function parseCursor(raw: string): string {
  const text = raw.trim();
  if (text === "last") return text;
  if (!/^(?:[^\s:@]+:\d+:[01])?(?:@\d{1,2})?$/.test(text) || text === "") {
    throw new ValidationError(`--cursor must be 'last' or a cursor like 0:100:0, got '${raw}'.`, "cursor");
  }
  return text;
}

/** The `--cursor` flag spec. */
export const cursorFlag = {
  kind: "parsed",
  placeholder: "<cursor>",
  parse: parseCursor,
  optional: true,
  brief: "Pagination cursor, or 'last' to continue after the previous page",
} as const;

/** The `--web` (`-w`) flag of the view commands (lib/web.ts does the opening). */
export const webFlag = {
  kind: "boolean",
  default: false,
  brief: "Open the page in the browser (prints the URL when none can be opened)",
} as const;

/** The `--fresh` flag spec (bypass caches when resolving a target). */
export const freshFlag = {
  kind: "boolean",
  default: false,
  brief: "Ignore cached context (DSN, project and region caches)",
} as const;

/**
 * The optional target positional of a command that lists or queries a target (`<org>/<project>`,
 * `<org>/`, `<project>`, or nothing for the context's): one shape for every such command.
 */
export function targetPositional(brief: string, placeholder = "target") {
  return {
    kind: "tuple" as const,
    parameters: [{ placeholder, brief, parse: String, optional: true as const }] as [
      { placeholder: string; brief: string; parse: StringConstructor; optional: true },
    ],
  };
}

/** The positionals of a command that reads one event: an event ID or an issue (its latest event), then the event's project. */
export const eventOrIssuePositional = {
  kind: "tuple" as const,
  parameters: [
    {
      placeholder: "event-id|issue",
      brief: "32-hex event ID, or an issue (its latest event)",
      parse: String,
    },
    {
      placeholder: "org/project",
      brief: "<org>/<project> of the event",
      parse: String,
      optional: true as const,
    },
  ] as [
    { placeholder: string; brief: string; parse: StringConstructor },
    { placeholder: string; brief: string; parse: StringConstructor; optional: true },
  ],
};

/** A repeatable glob flag that leaves paths out of a walk (`--ignore`, `--exclude`). */
export const ignoreGlobFlag = {
  kind: "parsed" as const,
  placeholder: "<glob>",
  parse: String,
  variadic: true as const,
  optional: true as const,
  brief: "Leave out paths matching this glob (repeatable)",
};
