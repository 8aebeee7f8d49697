/**
 * The environment of child processes tracker starts (npm, brew, the upgrade self-test, the new
 * binary's setup, the browser opener): tracker's own secrets are never passed on.
 */

/** Variables that hold tokens for tracker or Sentry tooling. */
const SECRET_VARS = new Set(["TRACKER_AUTH_TOKEN", "TRACKER_TOKEN", "SENTRY_AUTH_TOKEN", "SENTRY_TOKEN"]);

/** A copy of `env` without undefined values and without tracker's secrets. */
export function childEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SECRET_VARS.has(k)) out[k] = v;
  return out;
}
