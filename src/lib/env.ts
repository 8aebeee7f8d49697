import type { ConfigFile } from "./config/files.ts";
import { ConfigError, ValidationError } from "./errors.ts";
import { isLoopbackUrl } from "./loopback.ts";

/** The hosted service address used when TRACKER_URL is unset. */
export const DEFAULT_BASE_URL = "https://sentry.io";

/** Log levels, quietest first. */
export const LOG_LEVELS = ["error", "warn", "info", "debug", "trace"] as const;
/** One of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Parses a log level, naming the allowed values on failure. */
export function parseLogLevel(value: string, source: string): LogLevel {
  const v = value.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  if (v === "") {
    throw new ValidationError(`${source} needs a value. Allowed values: ${LOG_LEVELS.join(", ")}.`, source);
  }
  throw new ValidationError(
    `Invalid log level '${value}' in ${source}. Allowed values: ${LOG_LEVELS.join(", ")}.`,
    source,
  );
}

/**
 * Settings read from TRACKER_* variables and their SENTRY_* fallbacks (lower precedence); the only
 * place those variables are interpreted. `*Var` names the variable a value came from.
 */
export interface Settings {
  baseUrl: string;
  /** True when the service URL points somewhere other than the hosted service. */
  selfHosted: boolean;
  /** TRACKER_URL, else SENTRY_URL, when one of them named the service URL. */
  urlVar?: "TRACKER_URL" | "SENTRY_URL" | undefined;
  /** Set when an environment org token's own service won over TRACKER_URL/SENTRY_URL (org-token-url.ts). */
  ignoredUrl?: { name: string; url: string } | undefined;
  authToken: string | undefined;
  /** TRACKER_TOKEN, else SENTRY_AUTH_TOKEN (both below TRACKER_AUTH_TOKEN). */
  token: string | undefined;
  tokenVar?: "TRACKER_TOKEN" | "SENTRY_AUTH_TOKEN" | undefined;
  clientId: string | undefined;
  /** TRACKER_ORG, else SENTRY_ORG. */
  org: string | undefined;
  orgVar?: "TRACKER_ORG" | "SENTRY_ORG" | undefined;
  /** TRACKER_PROJECT, else SENTRY_PROJECT. */
  project: string | undefined;
  projectVar?: "TRACKER_PROJECT" | "SENTRY_PROJECT" | undefined;
  /** TRACKER_DSN, else SENTRY_DSN. */
  dsn: string | undefined;
  dsnVar?: "TRACKER_DSN" | "SENTRY_DSN" | undefined;
  /**
   * The Sentry configuration files around the working directory (`sentry.properties`,
   * `.sentryclirc`s), highest precedence first; read on first call, once per run.
   */
  configFiles?: () => readonly ConfigFile[];
  noAutoRepair: boolean;
  releaseUrl: string | undefined;
  /** TRACKER_INSTALL_DIR: where the install script put the binary (default ~/.tracker/bin). */
  installDir: string | undefined;
}

/**
 * A URL as it may be shown: any `user:password@` part replaced by `***@`. Works on text that does
 * not parse too: everything up to the last `@` is hidden, since a password may hold `/` or `@`,
 * and so is a "port" that is no number (`https://user:password` with the `@host` left off).
 */
export function maskUserinfo(raw: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(raw)?.[0] ?? "";
  const at = raw.lastIndexOf("@");
  if (at >= 0) return `${scheme}***${raw.slice(at)}`;
  return raw.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#:]*):(?!\d*(?:[/?#]|$))[^/?#]*/, "$1:***");
}

/** Normalises a service URL: http(s) only, no credentials, no trailing slash, no query; ConfigError otherwise. */
export function parseBaseUrl(raw: string, name = "TRACKER_URL"): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(
      `${name} is not a valid URL: '${maskUserinfo(raw)}'`,
      `Set ${name} to the address of your service, e.g. https://sentry.example.com`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new ConfigError(
      `${name} must not contain a user name or password: '${maskUserinfo(raw.trim())}'`,
      `Remove the user:password@ part from ${name}; tracker signs in with a token (\`tracker auth login\`).`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      `${name} must use http or https, got '${url.protocol}'`,
      `Set ${name} to the address of your service, e.g. https://sentry.example.com`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

/** The first of `names` set (non-blank) in `env`, with its value. */
function firstSet<N extends string>(
  env: Record<string, string | undefined>,
  names: readonly N[],
): { value: string | undefined; name: N | undefined } {
  for (const name of names) {
    const value = nonEmpty(env[name]);
    if (value) return { value, name };
  }
  return { value: undefined, name: undefined };
}

/** Where a run looks for Sentry configuration files. */
export interface ConfigLocation {
  cwd: string;
  homeDir: string;
  /** Says why a file another user owns or can write was ignored (called once per file, lazily). */
  warn?: (text: string) => void;
}

/**
 * Reads and validates every TRACKER_* setting from an environment, with the SENTRY_* names as
 * fallbacks. With `where`, the Sentry configuration files there become readable (lazily).
 */
export function readSettings(env: Record<string, string | undefined>, where?: ConfigLocation): Settings {
  const url = firstSet(env, ["TRACKER_URL", "SENTRY_URL"] as const);
  const baseUrl = url.value ? parseBaseUrl(url.value, url.name) : DEFAULT_BASE_URL;
  const rawRelease = nonEmpty(env.TRACKER_RELEASE_URL);
  const token = firstSet(env, ["TRACKER_TOKEN", "SENTRY_AUTH_TOKEN"] as const);
  const org = firstSet(env, ["TRACKER_ORG", "SENTRY_ORG"] as const);
  const project = firstSet(env, ["TRACKER_PROJECT", "SENTRY_PROJECT"] as const);
  const dsn = firstSet(env, ["TRACKER_DSN", "SENTRY_DSN"] as const);
  const settings: Settings = {
    baseUrl,
    selfHosted: !isHostedUrl(baseUrl),
    urlVar: url.name,
    authToken: nonEmpty(env.TRACKER_AUTH_TOKEN),
    token: token.value,
    tokenVar: token.name,
    clientId: nonEmpty(env.TRACKER_CLIENT_ID),
    org: org.value,
    orgVar: org.name,
    project: project.value,
    projectVar: project.name,
    dsn: dsn.value,
    dsnVar: dsn.name,
    noAutoRepair: env.TRACKER_CLI_NO_AUTO_REPAIR === "1",
    releaseUrl: rawRelease ? parseBaseUrl(rawRelease, "TRACKER_RELEASE_URL") : undefined,
    installDir: nonEmpty(env.TRACKER_INSTALL_DIR),
  };
  let files: readonly ConfigFile[] | undefined;
  const configFiles = (): readonly ConfigFile[] => {
    if (!where) return [];
    if (files === undefined) {
      // Loaded on first use: `--help` and `--version` never read these files.
      const { readConfigFiles } = require("./config/files.ts") as typeof import("./config/files.ts");
      const { ignoredFileWarning } = require("./config/trust.ts") as typeof import("./config/trust.ts");
      files = readConfigFiles(where.cwd, where.homeDir, env, (path, why) =>
        where.warn?.(ignoredFileWarning(path, why)),
      );
    }
    return files;
  };
  Object.defineProperty(settings, "configFiles", { value: configFiles, enumerable: false });
  return settings;
}

/** The service URL a configuration file names (normalised), or undefined when none or not a URL. */
export function configFileUrl(file: ConfigFile): string | undefined {
  try {
    return file.values.url ? parseBaseUrl(file.values.url, file.path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * With TRACKER_URL and SENTRY_URL unset, the service URL is that of the only stored login when
 * there is exactly one, else the first `url` of a Sentry configuration file, else the hosted
 * service. With an environment token, `soleLogin` answers the token's own URL instead (an org
 * token's claim) and no file is consulted: an environment token never follows a file's URL.
 * Looked up on first use, so commands that never need the URL (and `--help`) never open the
 * database or read a file for it.
 */
export function applyLoginDefault(settings: Settings, soleLogin: () => string | undefined): void {
  if (settings.urlVar) return;
  let resolved: string | undefined;
  const baseUrl = (): string => {
    if (resolved === undefined) {
      const sole = soleLogin();
      let url: string | undefined;
      try {
        if (sole) url = parseBaseUrl(sole);
      } catch {
        // A stored URL that is not one: the hosted default, and the login is reported as elsewhere.
        url = DEFAULT_BASE_URL;
      }
      if (url === undefined && !(settings.authToken ?? settings.token)) {
        for (const file of settings.configFiles?.() ?? []) {
          url = configFileUrl(file);
          if (url) break;
        }
      }
      resolved = url ?? DEFAULT_BASE_URL;
    }
    return resolved;
  };
  defineBaseUrl(settings, baseUrl);
}

/**
 * Points this run at another service URL, exactly as if TRACKER_URL named it (`auth login --url`).
 * Called before anything has used the URL.
 */
export function overrideBaseUrl(settings: Settings, baseUrl: string | (() => string)): void {
  defineBaseUrl(settings, typeof baseUrl === "string" ? () => baseUrl : baseUrl);
}

/** Makes `baseUrl` (and `selfHosted`, which follows it) read from `get`. */
function defineBaseUrl(settings: Settings, get: () => string): void {
  Object.defineProperty(settings, "baseUrl", { get, enumerable: true, configurable: true });
  Object.defineProperty(settings, "selfHosted", {
    get: () => !isHostedUrl(get()),
    enumerable: true,
    configurable: true,
  });
}

/**
 * The warning to print once per run when TRACKER_URL is plain http to another machine (the token
 * would travel unencrypted), else undefined. Reads only the environment, so it never makes the
 * service URL be looked up in the login database.
 */
export function insecureUrlWarning(env: Record<string, string | undefined>): string | undefined {
  const { value: raw, name } = firstSet(env, ["TRACKER_URL", "SENTRY_URL"] as const);
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || isLoopbackUrl(url.href)) return undefined;
  return `Warning: ${name} is plain http: your token is sent unencrypted to ${url.host}.`;
}

/** What warnInsecureUrlOnce needs of a run's context. */
export interface WarningSink {
  readonly env: Record<string, string | undefined>;
  /** Keys of what this run has already said (TrackerContext.said). */
  readonly said: Set<string>;
  readonly stderr: { write(text: string): void };
}

/** Prints insecureUrlWarning on stderr, at most once per run (keyed in `said`). */
export function warnInsecureUrlOnce(ctx: WarningSink): void {
  if (ctx.said.has("insecure-url")) return;
  ctx.said.add("insecure-url");
  const warning = insecureUrlWarning(ctx.env);
  if (warning) ctx.stderr.write(`${warning}\n`);
}

/** True for a host name of the hosted service: sentry.io and its subdomains (the one place this is decided). */
export function isHostedHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "sentry.io" || host.endsWith(".sentry.io");
}

/** True for the hosted service's URLs (sentry.io and its subdomains). */
export function isHostedUrl(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && isHostedHost(parsed.hostname);
}

export { isLoopbackUrl };
