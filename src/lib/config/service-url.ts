/** Where the run's service URL came from, for `tracker defaults show`. */
import type { TrackerContext } from "../../context.ts";
import { soleLoginUrl } from "../db/auth.ts";
import { configFileUrl, DEFAULT_BASE_URL } from "../env.ts";
import { configFiles, fileSource, type Provenance } from "./sources.ts";

/**
 * The provenance of `ctx.settings.baseUrl`, by the rule that chose it: TRACKER_URL or SENTRY_URL;
 * with an environment token its org claim (or the hosted default); else the only stored login;
 * else a configuration file's `url`; else the hosted default.
 */
export function serviceUrlSource(ctx: TrackerContext): Provenance {
  const s = ctx.settings;
  const url = s.baseUrl;
  if (s.ignoredUrl) {
    const name = s.authToken ? "TRACKER_AUTH_TOKEN" : (s.tokenVar ?? "TRACKER_TOKEN");
    return { kind: "token", label: `the org token in ${name}`, path: null };
  }
  if (s.urlVar) return { kind: "env", label: s.urlVar, path: null };
  const fallback: Provenance = { kind: "default", label: "default", path: null };
  if (s.authToken ?? s.token) {
    const name = s.authToken ? "TRACKER_AUTH_TOKEN" : (s.tokenVar ?? "TRACKER_TOKEN");
    return url === DEFAULT_BASE_URL
      ? fallback
      : { kind: "token", label: `the org token in ${name}`, path: null };
  }
  if (soleLoginUrl(ctx.store, ctx.configDir) === url) {
    return { kind: "login", label: "the only stored login", path: null };
  }
  const file = configFiles(ctx).find((f) => configFileUrl(f) === url);
  return file ? fileSource(ctx, file) : fallback;
}
