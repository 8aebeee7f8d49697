/**
 * sentry-cli's command line in tracker's words: the global flags become the run's environment
 * (token, URL, headers, log level) and run options (quiet, allow-failure), and the command form is
 * looked up in FORMS and rewritten to tracker's argv. A form or flag with no counterpart is a usage
 * error that names the closest tracker command; nothing is sent for it.
 */
import { CliError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { nearMatches } from "../near.ts";
import { quoteWord } from "../shell-quote.ts";
import { defaultArgv, FORMS } from "./forms.ts";
import type { CompatFlag, CompatForm, FormMatch, Translation } from "./types.ts";

/** The sentry-cli release whose command line the table follows (what `sentry-cli --version` claims). */
export const SENTRY_CLI_VERSION = "2.58.6";
/** What `sentry-cli --version` prints: sentry-cli's own shape, so version-sniffing build plugins accept it. */
export const SENTRY_CLI_VERSION_LINE = `sentry-cli ${SENTRY_CLI_VERSION}`;

const HELP = new Set(["--help", "-h"]);

interface Globals {
  rest: string[];
  after: string[] | undefined;
  token?: string;
  url?: string;
  headers: string[];
  logLevel?: string;
  quiet: boolean;
  allowFailure: boolean;
  version: boolean;
  help: boolean;
}

function usage(message: string): CliError {
  return new CliError(`${message}\nSee: tracker help sentry-cli`, EXIT.usage);
}

/** Takes sentry-cli's global flags out of argv (`--url` only before the command, as sentry-cli reads it). */
function scanGlobals(argv: readonly string[]): Globals {
  const dash = argv.indexOf("--");
  const head = dash >= 0 ? argv.slice(0, dash) : [...argv];
  const g: Globals = {
    rest: [],
    after: dash >= 0 ? argv.slice(dash + 1) : undefined,
    headers: [],
    quiet: false,
    allowFailure: false,
    version: false,
    help: false,
  };
  for (let i = 0; i < head.length; i++) {
    const a = head[i] as string;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const beforeCommand = g.rest.every((w) => w.startsWith("-"));
    const takeValue = (): string => {
      if (eq > 0) return a.slice(eq + 1);
      const v = head[i + 1];
      if (v === undefined) throw usage(`sentry-cli's ${name} needs a value.`);
      i++;
      return v;
    };
    if (name === "--auth-token") g.token = takeValue();
    else if (name === "--header") g.headers.push(takeValue());
    else if (name === "--log-level") g.logLevel = takeValue();
    else if (name === "--url" && beforeCommand) g.url = takeValue();
    else if (name === "--quiet" || name === "--silent") g.quiet = true;
    else if (name === "--allow-failure") g.allowFailure = true;
    else if ((name === "--version" || name === "-V") && beforeCommand) g.version = true;
    else if (name === "--api-key")
      throw usage("API keys are gone from Sentry: use an auth token (--auth-token).");
    else g.rest.push(a);
  }
  return g;
}

function isParam(word: string): boolean {
  return word.startsWith("<");
}

function flagOf(form: CompatForm, name: string): CompatFlag | undefined {
  return form.flags?.find((f) => f.names.includes(name));
}

interface Split {
  positionals: string[];
  given: { name: string; value?: string; raw: string[] }[];
}

/** Positionals and flags of the words after the globals, by the form's flag rules. */
function split(form: CompatForm, rest: readonly string[]): Split {
  const out: Split = { positionals: [], given: [] };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (!a.startsWith("-") || a === "-") {
      out.positionals.push(a);
      continue;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const rule = flagOf(form, name);
    if (rule?.value) {
      const value = eq > 0 ? a.slice(eq + 1) : rest[i + 1];
      if (value === undefined) throw usage(`sentry-cli ${form.words}: ${name} needs a value.`);
      if (eq < 0) i++;
      out.given.push({ name, value, raw: eq > 0 ? [a] : [a, value] });
    } else out.given.push({ name, raw: [a] });
  }
  return out;
}

/** The form the positionals start with, and its `<name>` words. */
function matchForm(rest: readonly string[]): {
  form: CompatForm;
  parts: Split;
  params: Record<string, string>;
} {
  const partial: CompatForm[] = [];
  for (const form of FORMS) {
    const parts = split(form, rest);
    const pattern = form.words.split(" ");
    const fits = (w: string, i: number) => isParam(w) || parts.positionals[i] === w;
    if (parts.positionals.length < pattern.length) {
      if (parts.positionals.length > 0 && pattern.slice(0, parts.positionals.length).every(fits))
        partial.push(form);
      continue;
    }
    if (!pattern.every(fits)) continue;
    const params: Record<string, string> = {};
    pattern.forEach((w, i) => {
      if (isParam(w)) params[w.slice(1, -1)] = parts.positionals[i] as string;
    });
    parts.positionals.splice(0, pattern.length);
    return { form, parts, params };
  }
  const first = partial[0];
  if (first && rest.some((a) => HELP.has(a))) return { form: first, parts: split(first, []), params: {} };
  if (first) {
    throw usage(
      `Incomplete sentry-cli command; tracker knows: ${partial.map((f) => `sentry-cli ${f.words}`).join(", ")}.`,
    );
  }
  throw unknownForm(rest.filter((w) => !w.startsWith("-")));
}

function unknownForm(words: string[]): CliError {
  const [w1, w2] = words;
  const same = FORMS.filter((f) => f.words.split(" ")[0] === w1);
  if (same.length > 0) {
    const verbs = [...new Set(same.map((f) => f.words.split(" ").find((w, i) => i > 0 && !isParam(w))))];
    return usage(
      `sentry-cli ${w1} ${w2 ?? ""}`.trimEnd() +
        ` is not a form tracker knows; it knows: ${verbs.filter(Boolean).join(", ")}.`,
    );
  }
  const near = nearMatches(w1 ?? "", new Set(FORMS.map((f) => f.words.split(" ")[0] as string)));
  const hint = near.length > 0 ? ` Did you mean ${near.join(" or ")}?` : "";
  return usage(`Unknown sentry-cli command '${w1}'.${hint}`);
}

const EMPTY_MATCH: FormMatch = {
  params: {},
  positionals: [],
  flags: [],
  values: new Map(),
  after: undefined,
  env: {},
  cwd: "",
  outerEnv: {},
  now: 0,
};

/** tracker's words for a form (the start of its `tracker` text). */
function trackerWords(form: CompatForm): string[] {
  return defaultArgv(form, EMPTY_MATCH);
}

/** The words after a passed-through form's own, as given, with its -o/-p taken into `env`. */
function passOn(form: CompatForm, rest: readonly string[], env: Record<string, string>): string[] {
  const own = form.words.split(" ");
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (own[0] === a) {
      own.shift();
      continue;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const rule = flagOf(form, eq > 0 ? a.slice(0, eq) : a);
    if (rule?.env) {
      const value = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (value === undefined) throw usage(`sentry-cli ${form.words}: ${a} needs a value.`);
      env[rule.env] ??= value;
    } else out.push(a);
  }
  return out;
}

/**
 * sentry-cli's argv (after the executable) as a tracker run; `now` dates deploys given with
 * --time, `cwd` resolves files named by flags (--ignore-file).
 */
export function translateSentryCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  now: number,
  cwd: string,
): Translation {
  const g = scanGlobals(argv);
  const runEnv: Record<string, string> = {};
  if (g.token !== undefined) runEnv.TRACKER_AUTH_TOKEN = g.token;
  if (g.url !== undefined) runEnv.TRACKER_URL = g.url;
  if (g.headers.length > 0) {
    const before = env.SENTRY_CUSTOM_HEADERS?.trim();
    runEnv.SENTRY_CUSTOM_HEADERS = [...(before ? [before] : []), ...g.headers].join("\n");
  }
  const level = g.quiet
    ? "error"
    : (g.logLevel ?? (env.TRACKER_LOG_LEVEL ? undefined : env.SENTRY_LOG_LEVEL));
  if (level?.trim()) runEnv.TRACKER_LOG_LEVEL = level.trim().toLowerCase();
  const allowFailure = g.allowFailure || /^(1|true)$/i.test(env.SENTRY_ALLOW_FAILURE?.trim() ?? "");
  const base = { env: runEnv, quiet: g.quiet, allowFailure, version: false };
  const words = g.rest.filter((w) => !w.startsWith("-"));
  if (g.version && words.length === 0) return { ...base, argv: [], version: true };
  if (words.length === 0 || words[0] === "help") return { ...base, argv: ["help", "sentry-cli"] };
  const { form, parts, params } = matchForm(g.rest);
  if (g.rest.some((a) => HELP.has(a))) return { ...base, argv: [...trackerWords(form), "--help"] };
  if (form.missing) {
    throw usage(`sentry-cli ${form.words} has no tracker counterpart. Closest: ${form.missing}`);
  }
  if (form.passthrough) {
    // tracker's command has sentry-cli's flags: everything but the target goes on in its order.
    const tail = g.after === undefined ? [] : ["--", ...g.after];
    return { ...base, argv: [...trackerWords(form), ...passOn(form, g.rest, runEnv), ...tail] };
  }
  const flags: string[] = [];
  const values = new Map<string, string[]>();
  const joined = new Map<string, { to: string; sep: string; at: number; items: string[] }>();
  for (const given of parts.given) {
    const rule = flagOf(form, given.name);
    if (!rule) {
      throw usage(
        `sentry-cli ${form.words}: tracker has no counterpart of ${given.name}. ` +
          `tracker's form is: tracker ${form.tracker} (tracker ${trackerWords(form).join(" ")} --help).`,
      );
    }
    if (rule.missing)
      throw usage(`sentry-cli ${form.words} ${given.name}: no tracker counterpart. Closest: ${rule.missing}`);
    const key = rule.names[0] as string;
    values.set(key, [...(values.get(key) ?? []), given.value ?? ""]);
    if (rule.env !== undefined) {
      runEnv[rule.env] ??= given.value ?? "";
    } else if (rule.to !== undefined && rule.join !== undefined) {
      const j = joined.get(key) ?? { to: rule.to, sep: rule.join, at: flags.length, items: [] };
      if (!joined.has(key)) flags.push(rule.to, "");
      j.items.push(given.value ?? "");
      joined.set(key, j);
    } else if (rule.to !== undefined) {
      flags.push(rule.to, ...(rule.value && !rule.dropValue ? [given.value ?? ""] : []));
    }
  }
  for (const j of joined.values()) flags[j.at + 1] = j.items.join(j.sep);
  if (!form.rest && parts.positionals.length > 0) {
    throw usage(
      `sentry-cli ${form.words} takes no further argument, got ${quoteWord(parts.positionals[0] as string)}.`,
    );
  }
  const match = {
    params,
    positionals: parts.positionals,
    flags,
    values,
    after: g.after,
    env: runEnv,
    cwd,
    outerEnv: env,
    now,
  };
  let out: string[];
  try {
    out = form.build ? form.build(match) : defaultArgv(form, match);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw usage(`sentry-cli ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (form.words === "login" && g.token !== undefined) {
    delete runEnv.TRACKER_AUTH_TOKEN;
    out = ["auth", "login", "--token", g.token];
  }
  const exitCode = form.exitCode;
  return { ...base, argv: out, ...(exitCode ? { exitCode: (code: number) => exitCode(match, code) } : {}) };
}
