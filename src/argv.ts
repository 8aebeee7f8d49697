/**
 * argv before Stricli sees it: the global flags (`--json`, `--verbose`, `--log-level`) and the
 * output-shaping flags (`--fields`, `--max-chars`, `--format`, `--jq`) are taken out wherever they
 * stand, validated, and the global ones handed to the leaf command; `help` and glued short values
 * are expanded.
 */
import type { RouteMap } from "@stricli/core";
import type { OutputOptions, TrackerContext } from "./context.ts";
import { CliError, ConfigError, ValidationError } from "./lib/errors.ts";
import { EXIT } from "./lib/exit-codes.ts";
import { parseFields } from "./lib/shape.ts";
import { SHAPING_FLAGS, valueFlagsOf } from "./argv-values.ts";

/** Global flags pulled out of argv, plus the arguments left for Stricli. */
export interface PreparedArgs {
  args: string[];
  json: boolean;
  verbose: boolean;
  logLevel: string | undefined;
  help: boolean;
  /** The command words reach a command (so flags go to it), rather than stopping at a route map. */
  command: boolean;
}

// `-H` is not among them: it is `--header` where a command has one (tracker api, as in gh api).
const HELP_FLAGS = new Set(["--help", "-h", "--helpAll", "--help-all"]);

/** argv with the global flags taken out: what they set, the rest, and where `--` starts in it. */
interface ScannedArgs {
  rest: string[];
  escapeAt: number;
  json: boolean;
  /** `--no-json` was given (it beats TRACKER_OUTPUT=json). */
  noJson: boolean;
  /** Raw values of the output-shaping flags (validated by outputOptions). */
  shaping: { fields?: string; maxChars?: string; format?: string; jq?: string };
  verbose: boolean;
  logLevel: string | undefined;
  help: boolean;
}

/** The words of argv that route to a command (`issue list`), or undefined. */
export function commandWords(args: readonly string[], root: RouteMap<TrackerContext>): string | undefined {
  const words: string[] = [];
  let target: unknown = root;
  for (const word of args) {
    if (!isRouteMap(target) || word.startsWith("-")) break;
    const next = target.getRoutingTargetForInput(word);
    if (!next) break;
    words.push(word);
    target = next;
  }
  return words.length > 0 ? words.join(" ") : undefined;
}

function isRouteMap(t: unknown): t is RouteMap<TrackerContext> {
  return typeof t === "object" && t !== null && "getRoutingTargetForInput" in t;
}

/**
 * True when the leading command words of `args` reach a command (including a route map's default
 * command), i.e. when Stricli will parse flags and the global flags must be handed to it.
 */
function reachesCommand(args: readonly string[], root: RouteMap<TrackerContext>): boolean {
  let target: unknown = root;
  for (const word of args) {
    if (!isRouteMap(target) || word.startsWith("-")) break;
    const next = target.getRoutingTargetForInput(word);
    if (!next) break;
    target = next;
  }
  if (target === root) return false;
  return !isRouteMap(target) || target.getDefaultCommand() !== undefined;
}

/**
 * Moves global flags (`--json`, `--verbose`, `--log-level <l>`) from anywhere before `--` to the end
 * (or just before `--`), because Stricli reads flags only at the leaf command. Repeats collapse to one
 * canonical occurrence (the last value wins), so `tracker --json org list --json` is not an error.
 * Route-map targets and help requests get none: they have no flags to receive them.
 */
export function prepareArgs(
  argv: readonly string[],
  root: RouteMap<TrackerContext>,
  jsonMode?: boolean,
): PreparedArgs {
  const scanned = scanGlobals(argv, valueFlagsOf(argv, root));
  return placeGlobals(scanned, root, jsonMode ?? scanned.json);
}

/** The output options of argv (see outputOptions); `root` tells which flags take a value. */
export function outputOf(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  root?: RouteMap<TrackerContext>,
) {
  return outputOptions(scanGlobals(argv, root ? valueFlagsOf(argv, root) : undefined), env);
}

/** The first command word of argv once global flags (and a --log-level value) are taken out. */
export function firstCommandWord(argv: readonly string[]): string | undefined {
  return commandWord(scanGlobals(argv));
}

function commandWord(s: ScannedArgs): string | undefined {
  const first = s.rest[0];
  return first === undefined || first.startsWith("-") ? undefined : first;
}

export function scanGlobals(argv: readonly string[], valueFlags?: ReadonlySet<string>): ScannedArgs {
  const rest: string[] = [];
  let json = false;
  let noJson = false;
  let verbose = false;
  let logLevel: string | undefined;
  let help = false;
  let escapeAt = -1;
  const shaping: ScannedArgs["shaping"] = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") {
      escapeAt = rest.length;
      rest.push(...argv.slice(i));
      break;
    }
    if (valueFlags?.has(a) && i + 1 < argv.length) {
      rest.push(a, argv[i + 1] as string);
      i++;
      continue;
    }
    const shape = SHAPING_FLAGS[a.split("=")[0] as string];
    if (shape) {
      const eq = a.indexOf("=");
      if (eq >= 0) shaping[shape] = a.slice(eq + 1);
      else {
        const value = argv[i + 1];
        shaping[shape] = value === undefined || value.startsWith("--") ? "" : value;
        if (value !== undefined && !value.startsWith("--")) i++;
      }
      continue;
    }
    if (a === "--json" || a === "--no-json" || a === "--noJson") {
      json = a === "--json";
      noJson = !json;
    } else if (a === "--verbose" || a === "--no-verbose" || a === "--noVerbose") {
      verbose = a === "--verbose";
    } else if (a === "--log-level" || a === "--logLevel") {
      // A missing value (end of argv or another flag) is reported by parseLogLevel as ''.
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("-")) logLevel = "";
      else {
        logLevel = value;
        i++;
      }
    } else if (a.startsWith("--log-level=") || a.startsWith("--logLevel=")) {
      logLevel = a.slice(a.indexOf("=") + 1);
    } else {
      if (HELP_FLAGS.has(a)) help = true;
      rest.push(a);
    }
  }
  return { rest, escapeAt, json, noJson, verbose, logLevel, help, shaping };
}

/**
 * The output options of a run: `--fields` and `--format md` imply JSON documents (commands take
 * their --json path), `--max-chars` alone means markdown, TRACKER_OUTPUT=json makes JSON the
 * default. Bad values are validation errors before anything runs.
 */
function outputOptions(
  s: ScannedArgs,
  env: Record<string, string | undefined>,
): { json: boolean; output?: OutputOptions } {
  const envOut = env.TRACKER_OUTPUT?.trim().toLowerCase();
  if (envOut && envOut !== "json" && envOut !== "text") {
    throw new ConfigError(
      `TRACKER_OUTPUT must be json or text, got '${env.TRACKER_OUTPUT}'.`,
      "Unset it, or set TRACKER_OUTPUT=json.",
    );
  }
  const { fields, maxChars, format, jq } = s.shaping;
  if (jq !== undefined && jq.trim() === "")
    throw new ValidationError("--jq needs a jq program, e.g. '.data[].shortId'.", "jq");
  if (format !== undefined && format !== "json" && format !== "md") {
    throw new ValidationError(`--format must be json or md, got '${format}'.`, "format");
  }
  let max: number | undefined;
  if (maxChars !== undefined) {
    if (!/^\d{3,8}$/.test(maxChars.trim()) || Number(maxChars) < 200) {
      throw new ValidationError(
        `--max-chars must be a whole number from 200 to 99999999, got '${maxChars}'.`,
        "max-chars",
      );
    }
    max = Number(maxChars);
  }
  const paths = fields === undefined ? undefined : parseFields(fields);
  const md = format === "md" || (max !== undefined && format === undefined && !s.json && envOut !== "json");
  const json =
    jq !== undefined ||
    (!s.noJson && (s.json || envOut === "json" || md || paths !== undefined || max !== undefined));
  if (!json) return { json };
  return {
    json,
    output: {
      format: md && jq === undefined ? "md" : "json",
      ...(paths ? { fields: paths } : {}),
      ...(max ? { maxChars: max } : {}),
      ...(jq !== undefined ? { jq } : {}),
    },
  };
}

function placeGlobals(s: ScannedArgs, root: RouteMap<TrackerContext>, jsonMode = s.json): PreparedArgs {
  const { rest, escapeAt, verbose, logLevel, help } = s;
  const json = jsonMode;
  const args = [...rest];
  const command = reachesCommand(escapeAt >= 0 ? rest.slice(0, escapeAt) : rest, root);
  if (!help && command) {
    const tail: string[] = [];
    if (json) tail.push("--json");
    if (verbose) tail.push("--verbose");
    // Case is normalised here because the leaf's enum flag is case-sensitive; main validates the value.
    if (logLevel) tail.push("--log-level", logLevel.trim().toLowerCase());
    args.splice(escapeAt >= 0 ? escapeAt : args.length, 0, ...tail);
  }
  return { args, json, verbose, logLevel, help, command };
}

/** Short flags that take a value, so `-n5` can mean `-n 5` (limit, period, cursor, query, sort). */
const VALUE_ALIASES = new Set(["n", "t", "c", "q", "s"]);
/** A sort value for descending order (`-count()`, `-p95(span.duration)`, `-timestamp`), not a flag. */
const DESCENDING_SORT = /^-[A-Za-z_][A-Za-z0-9_.]+(\([^()]*\))?$/;

/**
 * argv as the parser should see it: `tracker help [words…]` is `tracker [words…] --help`, and a
 * value glued to a short flag (`-n5`, `-t24h`) is split off, as other CLIs allow.
 */
export function expandArgv(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  const head = end >= 0 ? argv.slice(0, end) : [...argv];
  const tail = end >= 0 ? argv.slice(end) : [];
  const out: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const a = head[i] as string;
    const next = head[i + 1];
    // `-s -count()`: a descending sort starts with '-', which a flag parser reads as a flag.
    if ((a === "-s" || a === "--sort") && next !== undefined && DESCENDING_SORT.test(next)) {
      out.push(`--sort=${next}`);
      i++;
      continue;
    }
    const glued = /^-([A-Za-z])(.+)$/.exec(a);
    if (glued && VALUE_ALIASES.has(glued[1] as string)) out.push(`-${glued[1]}`, glued[2] as string);
    else out.push(a);
  }
  if (out[0] === "help") return [...out.slice(1), "--help", ...tail];
  return [...out, ...tail];
}

/** The usage error for `--json` on a command word that names a group (or nothing), not a command. */
export function needsCommand(word: string | undefined): CliError {
  const what = word ? `\`tracker ${word}\`` : "`tracker`";
  return new CliError(
    `${what} needs a command; --json applies to commands.\nRun '${what.slice(1, -1)} --help' to see them.`,
    EXIT.usage,
  );
}
