/** The DSN a send by DSN uses: TRACKER_DSN, else the first one detected for the working directory. */
import type { TrackerContext } from "../../context.ts";
import { type FoundDsn, findDsns } from "../dsn/detect.ts";
import { ContextError } from "../errors.ts";

/** Where else a DSN is looked up (after TRACKER_DSN), for the error when none is found. */
export const DSN_LOOKUP_HELP = [
  "put it in a .env file of this directory or the project root (TRACKER_DSN=... or SENTRY_DSN=...)",
  "or keep it in the project's source code (where the Sentry SDK is initialised); both are scanned",
] as const;

/**
 * The DSN to send with; ContextError (exit 22) naming every place looked at when there is none.
 * Several detected DSNs (a monorepo): the first in scope order (.env files, then the shallowest).
 */
export function dsnForSend(ctx: TrackerContext, command: string): FoundDsn {
  const found = findDsns(ctx).found;
  const first = found[0];
  if (!first) {
    throw new ContextError(
      "A DSN",
      `Looked in TRACKER_DSN, SENTRY_DSN, .env files and source code; found none. Set one:\n  TRACKER_DSN=https://<public key>@<host>/<project id> ${command}`,
      DSN_LOOKUP_HELP,
    );
  }
  if (found.length > 1) {
    ctx.log.debug(`${found.length} DSNs detected; using the one from ${first.source}`);
  }
  ctx.log.debug(`Sending with the DSN from ${first.source}`);
  return first;
}
