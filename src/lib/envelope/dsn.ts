/**
 * The DSN a send by DSN uses: TRACKER_DSN/SENTRY_DSN, else a configuration file's `[auth] dsn`
 * (`.sentryclirc`, where sentry-cli users keep it), else the first one detected for the working
 * directory.
 */
import type { TrackerContext } from "../../context.ts";
import { configFiles, fileLabel } from "../config/sources.ts";
import { type FoundDsn, findDsns } from "../dsn/detect.ts";
import { parseDsn } from "../dsn/parse.ts";
import { ConfigError, ContextError } from "../errors.ts";

/** Where else a DSN is looked up (after TRACKER_DSN), for the error when none is found. */
export const DSN_LOOKUP_HELP = [
  "put it in a .env file of this directory or the project root (TRACKER_DSN=... or SENTRY_DSN=...)",
  "or keep it in the project's source code (where the Sentry SDK is initialised); both are scanned",
  "or in .sentryclirc: [auth] dsn=...",
] as const;

/** The `[auth] dsn` of the first configuration file that has one; a malformed one is a ConfigError. */
export function configFileDsn(ctx: TrackerContext): FoundDsn | undefined {
  const file = configFiles(ctx).find((f) => f.values.dsn);
  if (!file?.values.dsn) return undefined;
  const label = fileLabel(ctx, file.path);
  const dsn = parseDsn(file.values.dsn);
  if (!dsn) {
    throw new ConfigError(
      `The dsn in ${label} is not a valid DSN.`,
      "Use the form https://<public key>@<host>/<project id>, as shown in the project's Client Keys settings.",
    );
  }
  return { dsn, source: label, file: file.path };
}

/** The DSN to send with, or undefined when there is none (environment, configuration file, detection). */
export function findSendDsn(ctx: TrackerContext): FoundDsn | undefined {
  if (!ctx.settings.dsn) {
    const fromFile = configFileDsn(ctx);
    if (fromFile) {
      ctx.log.debug(`Sending with the DSN from ${fromFile.source}`);
      return fromFile;
    }
  }
  const found = findDsns(ctx).found;
  const first = found[0];
  if (!first) return undefined;
  if (found.length > 1) {
    ctx.log.debug(`${found.length} DSNs detected; using the one from ${first.source}`);
  }
  ctx.log.debug(`Sending with the DSN from ${first.source}`);
  return first;
}

/** The ContextError (exit 22) naming every place a DSN is looked up, with the command to set one. */
export function noDsnError(command: string, extra: readonly string[] = []): ContextError {
  return new ContextError(
    "A DSN",
    `Looked in TRACKER_DSN, SENTRY_DSN, .sentryclirc, .env files and source code; found none. Set one:\n  TRACKER_DSN=https://<public key>@<host>/<project id> ${command}`,
    [...DSN_LOOKUP_HELP, ...extra],
  );
}

/**
 * The DSN to send with; ContextError (exit 22) naming every place looked at when there is none.
 * Several detected DSNs (a monorepo): the first in scope order (.env files, then the shallowest).
 */
export function dsnForSend(ctx: TrackerContext, command: string): FoundDsn {
  const found = findSendDsn(ctx);
  if (!found) throw noDsnError(command);
  return found;
}
