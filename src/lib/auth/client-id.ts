import type { TrackerContext } from "../../context.ts";
import { ConfigError } from "../errors.ts";

declare const TRACKER_BUILD_CLIENT_ID: string | undefined;

/**
 * The public OAuth client id of tracker's application on the hosted service, compiled into release
 * builds (`--define TRACKER_BUILD_CLIENT_ID=...`; `bun run build:all` refuses to build without
 * it). Development builds have none: their hosted device-flow login asks for TRACKER_CLIENT_ID or
 * a token instead of sending a made-up id.
 */
export const BUILT_IN_CLIENT_ID: string | undefined =
  typeof TRACKER_BUILD_CLIENT_ID === "string" && TRACKER_BUILD_CLIENT_ID
    ? TRACKER_BUILD_CLIENT_ID
    : undefined;

/**
 * The OAuth client id to use: TRACKER_CLIENT_ID, else the built-in one for the hosted service.
 * Self-hosted instances must have their own Public application.
 */
export function oauthClientId(ctx: TrackerContext): string {
  if (ctx.settings.clientId) return ctx.settings.clientId;
  if (!ctx.settings.selfHosted) {
    if (BUILT_IN_CLIENT_ID) return BUILT_IN_CLIENT_ID;
    throw new ConfigError(
      "This build of tracker has no OAuth client ID for sentry.io (development builds do not)",
      `Log in with a token instead: create one at ${ctx.settings.baseUrl}/settings/account/api/auth-tokens/ and run \`tracker auth login --token\`, or set TRACKER_CLIENT_ID to a Public OAuth application's client ID.`,
    );
  }
  throw new ConfigError(
    "OAuth requires `TRACKER_CLIENT_ID` for self-hosted instances",
    `Create a Public OAuth application at ${ctx.settings.baseUrl}/settings/account/api/applications/ and set TRACKER_CLIENT_ID to its client ID (Sentry 26.1.0 or later). On older servers, create a token at ${ctx.settings.baseUrl}/settings/account/api/auth-tokens/ and run \`tracker auth login --token\`.`,
  );
}
