import type { TrackerContext } from "../../context.ts";
import { envToken } from "../../lib/auth/token.ts";
import { clearCredentials, listLogins } from "../../lib/db/auth.ts";
import { parseBaseUrl } from "../../lib/env.ts";
import { CliError, ValidationError } from "../../lib/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeTip } from "../../lib/output.ts";
import { writeResult } from "../../lib/view/write.ts";

/** Flags of `auth logout`. */
export interface LogoutFlags extends GlobalFlags {
  url?: string;
  all: boolean;
}

/**
 * `tracker auth logout [--url URL | --all]`: removes the stored login of the current service URL
 * (or of --url, or every one); an environment token keeps applying.
 */
export default async function authLogout(this: TrackerContext, flags: LogoutFlags): Promise<void> {
  if (flags.all && flags.url !== undefined) {
    throw new ValidationError("--url and --all cannot be combined: name one service, or all.", "url");
  }
  const which = flags.all
    ? "all"
    : flags.url !== undefined
      ? parseBaseUrl(flags.url, "--url")
      : this.settings.baseUrl;
  const removed = clearCredentials(this, which);
  let remaining: string[] = [];
  try {
    remaining = listLogins(this)
      .map((l) => l.base_url)
      .filter((u): u is string => !!u);
  } catch (err) {
    this.log.debug(`Stored logins unreadable: ${err instanceof CliError ? err.message : String(err)}`);
  }
  const env = envToken(this);
  if (env) {
    writeTip(
      this,
      `${env.source} is still set in the environment and will still be used; unset it to stop using it.`,
    );
  }
  const doc = {
    loggedOut: removed.length > 0,
    removed: removed.length > 0,
    baseUrl: which === "all" ? null : which,
    removedLogins: removed,
    remainingLogins: remaining,
    envToken: env?.source ?? null,
  };
  const said =
    removed.length > 0
      ? `Logged out: removed the stored login${removed.length > 1 ? "s" : ""} for ${removed.join(", ")}.`
      : which === "all"
        ? "No stored logins to remove."
        : `No stored login for ${which} to remove.`;
  writeResult(this, flags.json, doc, said);
  if (flags.json || remaining.length === 0) return;
  writeTip(
    this,
    removed.length > 0
      ? `Still logged in to: ${remaining.join(", ")}.`
      : `Stored logins: ${remaining.join(", ")} (tracker auth logout --url <url> removes one).`,
  );
}
