import type { TrackerContext } from "../../context.ts";
import { envToken } from "../../lib/auth/token.ts";
import { clearCredentials, readCredentials } from "../../lib/db/auth.ts";
import { CliError } from "../../lib/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";

/** `tracker auth logout`: removes the stored credentials; an environment token keeps applying. */
export default async function authLogout(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  let issuedFor: string | null = null;
  try {
    issuedFor = readCredentials(this)?.base_url ?? null;
  } catch (err) {
    // A damaged row must not stop the user from removing it.
    this.log.debug(`Stored credentials unreadable: ${err instanceof CliError ? err.message : String(err)}`);
  }
  const removed = clearCredentials(this);
  const env = envToken(this);
  if (env) {
    writeTip(
      this,
      `${env.source} is still set in the environment and will still be used; unset it to stop using it.`,
    );
  }
  if (flags.json) {
    writeJson(this, { loggedOut: true, removed, baseUrl: issuedFor, envToken: env?.source ?? null });
    return;
  }
  writeLines(
    this,
    removed
      ? `Logged out: removed the stored credentials${issuedFor ? ` for ${issuedFor}` : ""}.`
      : "No stored credentials to remove.",
  );
}
