import { ConfigError, ValidationError } from "./errors.ts";

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

/** Settings read from TRACKER_* variables; the only place those variables are interpreted. */
export interface Settings {
  baseUrl: string;
  /** True when TRACKER_URL points somewhere other than the hosted service. */
  selfHosted: boolean;
  authToken: string | undefined;
  token: string | undefined;
  clientId: string | undefined;
  org: string | undefined;
  project: string | undefined;
  dsn: string | undefined;
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

/** Reads and validates every TRACKER_* setting from an environment. */
export function readSettings(env: Record<string, string | undefined>): Settings {
  const rawUrl = nonEmpty(env.TRACKER_URL);
  const baseUrl = rawUrl ? parseBaseUrl(rawUrl) : DEFAULT_BASE_URL;
  const rawRelease = nonEmpty(env.TRACKER_RELEASE_URL);
  return {
    baseUrl,
    selfHosted: !isHostedUrl(baseUrl),
    authToken: nonEmpty(env.TRACKER_AUTH_TOKEN),
    token: nonEmpty(env.TRACKER_TOKEN),
    clientId: nonEmpty(env.TRACKER_CLIENT_ID),
    org: nonEmpty(env.TRACKER_ORG),
    project: nonEmpty(env.TRACKER_PROJECT),
    dsn: nonEmpty(env.TRACKER_DSN),
    noAutoRepair: env.TRACKER_CLI_NO_AUTO_REPAIR === "1",
    releaseUrl: rawRelease ? parseBaseUrl(rawRelease, "TRACKER_RELEASE_URL") : undefined,
    installDir: nonEmpty(env.TRACKER_INSTALL_DIR),
  };
}

/**
 * With TRACKER_URL unset, the service URL is that of the only stored login when there is exactly
 * one, else the hosted service. Looked up on first use, so commands that never need the URL (and
 * `--help`) never open the database for it.
 */
export function applyLoginDefault(settings: Settings, soleLogin: () => string | undefined): void {
  let resolved: string | undefined;
  const baseUrl = (): string => {
    if (resolved === undefined) {
      const sole = soleLogin();
      let url = DEFAULT_BASE_URL;
      try {
        if (sole) url = parseBaseUrl(sole);
      } catch {
        // A stored URL that is not one: the hosted default, and the login is reported as elsewhere.
      }
      resolved = url;
    }
    return resolved;
  };
  defineBaseUrl(settings, baseUrl);
}

/**
 * Points this run at another service URL, exactly as if TRACKER_URL named it (`auth login --url`).
 * Called before anything has used the URL.
 */
export function overrideBaseUrl(settings: Settings, baseUrl: string): void {
  defineBaseUrl(settings, () => baseUrl);
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

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True when a URL's host is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return LOOPBACK_HOSTS.has(host) || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * The warning to print once per run when TRACKER_URL is plain http to another machine (the token
 * would travel unencrypted), else undefined. Reads only the environment, so it never makes the
 * service URL be looked up in the login database.
 */
export function insecureUrlWarning(env: Record<string, string | undefined>): string | undefined {
  const raw = nonEmpty(env.TRACKER_URL);
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || isLoopbackUrl(url.href)) return undefined;
  return `Warning: TRACKER_URL is plain http: your token is sent unencrypted to ${url.host}.`;
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
