import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../../lib/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { jsonText, writeSecretLine } from "../../lib/output.ts";

/** Flags of `tracker auth token`. */
export interface TokenFlags extends GlobalFlags {
  /** Print the token even when stdout is a terminal. */
  readonly show: boolean;
}

/**
 * `tracker auth token`: the token the next request would carry, on stdout alone (as `gh auth
 * token` prints it), for curl and other tools. Never onto a terminal unless --show asks for it
 * (a screen is shared, recorded and scrolled back). Not logged in: AuthError (exit 10).
 */
export default async function authToken(this: TrackerContext, flags: TokenFlags): Promise<void> {
  if (this.isStdoutTTY && !flags.show) {
    throw new ValidationError(
      "Not printing the token on a terminal. Pass it to a program instead (`tracker auth token | …`, `$(tracker auth token)`), or add --show to print it here.",
      "show",
    );
  }
  const t = await this.tokens.current(this);
  this.log.info(`Token from ${t.source === "stored" ? "the stored login" : (t.path ?? t.source)}`);
  // JSON too goes out as one line through the deliberate exception (a token has nothing JSON escapes).
  writeSecretLine(this, flags.json ? jsonText({ token: t.token, source: t.source }) : t.token, t.token);
}
