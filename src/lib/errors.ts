/**
 * Error classes of the CLI. Every expected failure is one of these; each knows its exit code and
 * how to print itself, so one top-level handler can render any of them.
 */
import { EXIT } from "./exit-codes.ts";

/** Base class of every expected failure: prints `Error: <message>`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.unexpected) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
  /** The text after `Error: `, possibly several lines. */
  format(): string {
    return this.message;
  }
}

/** Reasons an authentication can fail (spec section 7). */
export type AuthReason = "not_authenticated" | "expired" | "invalid" | "host_scope";

const AUTH_EXIT: Record<AuthReason, number> = {
  not_authenticated: EXIT.notAuthenticated,
  expired: EXIT.authExpired,
  invalid: EXIT.authInvalid,
  host_scope: EXIT.hostScope,
};

/** Missing, expired or rejected credentials; always advises how to log in. */
export class AuthError extends CliError {
  readonly reason: AuthReason;
  readonly hint: string | undefined;
  constructor(reason: AuthReason, message?: string, hint?: string) {
    super(message ?? defaultAuthMessage(reason), AUTH_EXIT[reason]);
    this.name = "AuthError";
    this.reason = reason;
    this.hint = hint ?? defaultAuthHint(reason);
  }
  override format(): string {
    return this.hint ? `${this.message}\n\n${this.hint}` : this.message;
  }
}

function defaultAuthMessage(reason: AuthReason): string {
  switch (reason) {
    case "not_authenticated":
      return "Not authenticated";
    case "expired":
      return "Authentication expired";
    case "invalid":
      return "Invalid token";
    case "host_scope":
      return "Stored credentials belong to another service URL";
  }
}

function defaultAuthHint(reason: AuthReason): string {
  switch (reason) {
    case "not_authenticated":
      return "Run `tracker auth login` to log in (in CI, set TRACKER_AUTH_TOKEN).";
    case "expired":
      return "Run `tracker auth login` again.";
    case "invalid":
      return "Check the token, or run `tracker auth login` to get a new one.";
    case "host_scope":
      return "Run `tracker auth login` against this URL, or unset TRACKER_URL.";
  }
}

/** The service answered with a non-success status, or with a body we cannot use. */
export class ApiError extends CliError {
  readonly status: number;
  readonly detail: string | undefined;
  readonly endpoint: string | undefined;
  readonly hint: string | undefined;
  constructor(opts: { status: number; detail?: string; endpoint?: string; message?: string; hint?: string }) {
    super(opts.message ?? `Request failed with status ${opts.status}`, EXIT.api);
    this.name = "ApiError";
    this.status = opts.status;
    this.detail = opts.detail;
    this.endpoint = opts.endpoint;
    this.hint = opts.hint;
  }
  override format(): string {
    let out = this.message;
    if (this.detail) out += `\n${indent(this.detail)}`;
    if (this.hint) out += `\n\n${this.hint}`;
    return out;
  }
}

/** Connection refused, DNS, TLS or timeout: the request never got an HTTP answer. */
export class NetworkError extends CliError {
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message, EXIT.network);
    this.name = "NetworkError";
    this.hint = hint;
  }
  override format(): string {
    return this.hint ? `${this.message}\n\n${this.hint}` : this.message;
  }
}

/** A configuration problem: message, blank line, `Suggestion: <hint>`. */
export class ConfigError extends CliError {
  readonly suggestion: string | undefined;
  constructor(message: string, suggestion?: string) {
    super(message, EXIT.config);
    this.name = "ConfigError";
    this.suggestion = suggestion;
  }
  override format(): string {
    return this.suggestion ? `${this.message}\n\nSuggestion: ${this.suggestion}` : this.message;
  }
}

/** Ctrl-C at a prompt: exit 130 (128 + SIGINT, as shells report it), nothing changed. */
export class PromptCancelled extends CliError {
  constructor(message = "Cancelled; nothing was changed.") {
    super(message, EXIT.cancelled);
    this.name = "PromptCancelled";
  }
}

/** Required context (organization, project) could not be determined. */
export class ContextError extends CliError {
  readonly resource: string;
  readonly usage: string;
  readonly alternatives: readonly string[];
  constructor(resource: string, usage: string, alternatives: readonly string[] = []) {
    super(`${resource} ${resource.includes(" and ") ? "are" : "is"} required.`, EXIT.context);
    this.name = "ContextError";
    this.resource = resource;
    this.usage = usage;
    this.alternatives = alternatives;
  }
  override format(): string {
    let out = `${this.message}\n\n  ${this.usage}`;
    if (this.alternatives.length > 0) {
      out += `\n\nOr:\n${this.alternatives.map((a) => `  - ${a}`).join("\n")}`;
    }
    return out;
  }
}

/** An identifier (org, project, issue, trace, DSN) could not be resolved to one thing. */
export class ResolutionError extends CliError {
  readonly resource: string;
  readonly headline: string;
  readonly hint: string | undefined;
  readonly alternatives: readonly string[];
  constructor(resource: string, headline: string, hint?: string, alternatives: readonly string[] = []) {
    super(`${resource} ${headline}.`, EXIT.resolution);
    this.name = "ResolutionError";
    this.resource = resource;
    this.headline = headline;
    this.hint = hint;
    this.alternatives = alternatives;
  }
  override format(): string {
    let out = this.message;
    if (this.hint) out += `\n\n${this.hint}`;
    if (this.alternatives.length > 0) {
      out += `\n\nOr:\n${this.alternatives.map((a) => `  - ${a}`).join("\n")}`;
    }
    return out;
  }
}

/** A malformed argument, flag or value. */
export class ValidationError extends CliError {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message, EXIT.validation);
    this.name = "ValidationError";
    this.field = field;
  }
}

/** OAuth device-flow error codes (RFC 8628) the spec names. */
export type DeviceFlowCode =
  | "authorization_pending"
  | "slow_down"
  | "expired_token"
  | "access_denied"
  | "invalid_grant"
  | "invalid_client"
  | "unsupported_grant_type"
  | "invalid_request"
  | "unexpected_response";

/** The OAuth device flow ended without a token. */
export class DeviceFlowError extends CliError {
  readonly code: DeviceFlowCode;
  readonly hint: string | undefined;
  constructor(code: DeviceFlowCode, message: string, hint?: string) {
    super(message, EXIT.deviceFlow);
    this.name = "DeviceFlowError";
    this.code = code;
    this.hint = hint;
  }
  override format(): string {
    return this.hint ? `${this.message}\n\n${this.hint}` : this.message;
  }
}

/** Reasons AI analysis is unavailable, plus our own failure/timeout reason. */
export type AnalysisReason = "not_enabled" | "no_budget" | "ai_disabled" | "failed";

const ANALYSIS_EXIT: Record<AnalysisReason, number> = {
  not_enabled: EXIT.analysisNotEnabled,
  no_budget: EXIT.analysisNoBudget,
  ai_disabled: EXIT.analysisAiDisabled,
  failed: EXIT.analysisFailed,
};

/** AI analysis cannot run or did not finish; carries the settings URL where one helps. */
export class AnalysisError extends CliError {
  readonly reason: AnalysisReason;
  readonly settingsUrl: string | undefined;
  constructor(reason: AnalysisReason, message: string, settingsUrl?: string) {
    super(message, ANALYSIS_EXIT[reason]);
    this.name = "AnalysisError";
    this.reason = reason;
    this.settingsUrl = settingsUrl;
  }
  override format(): string {
    return this.settingsUrl ? `${this.message}\n\n  ${this.settingsUrl}` : this.message;
  }
}

/** Reasons an upgrade can fail (spec section 7). */
export type UpgradeReason =
  | "unknown_method"
  | "unsupported_operation"
  | "network_error"
  | "execution_failed"
  | "version_not_found";

/** `tracker upgrade` could not complete; the installed binary is left as it was. */
export class UpgradeError extends CliError {
  readonly reason: UpgradeReason;
  readonly hint: string | undefined;
  /**
   * `connection`: the release server could not be reached or the transfer broke off, which
   * is a network failure (exit 31) like any other; everything else about an upgrade is 50.
   */
  constructor(reason: UpgradeReason, message: string, hint?: string, opts: { connection?: boolean } = {}) {
    super(message, opts.connection ? EXIT.network : EXIT.upgrade);
    this.name = "UpgradeError";
    this.reason = reason;
    this.hint = hint;
  }
  override format(): string {
    return this.hint ? `${this.message}\n\n${this.hint}` : this.message;
  }
}

/** Indents every line of a block by two spaces. */
export function indent(text: string, by = "  "): string {
  return text
    .split("\n")
    .map((l) => (l.length > 0 ? by + l : l))
    .join("\n");
}
