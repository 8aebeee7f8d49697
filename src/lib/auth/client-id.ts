import type { TrackerContext } from "../../context.ts";
import { ConfigError } from "../errors.ts";

declare const TRACKER_BUILD_CLIENT_ID: string | undefined;

/**
 * The public OAuth client id of the hosted service's tracker application, set at build time
 * (`--define TRACKER_BUILD_CLIENT_ID=...`); this placeholder is used by development builds.
 */
export const BUILT_IN_CLIENT_ID: string =
  typeof TRACKER_BUILD_CLIENT_ID === "string" && TRACKER_BUILD_CLIENT_ID
    ? TRACKER_BUILD_CLIENT_ID
    : "7f3a1c9e5b2d4806a1e3c5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7";

/**
 * The OAuth client id to use: TRACKER_CLIENT_ID, else the built-in one for the hosted service.
 * Self-hosted instances must have their own Public application.
 */
export function oauthClientId(ctx: TrackerContext): string {
  if (ctx.settings.clientId) return ctx.settings.clientId;
  if (!ctx.settings.selfHosted) return BUILT_IN_CLIENT_ID;
  throw new ConfigError(
    "OAuth requires `TRACKER_CLIENT_ID` for self-hosted instances",
    `Create a Public OAuth application at ${ctx.settings.baseUrl}/settings/account/api/applications/ and set TRACKER_CLIENT_ID to its client ID (Sentry 26.1.0 or later). On older servers, create a token at ${ctx.settings.baseUrl}/settings/account/api/auth-tokens/ and run \`tracker auth login --token\`.`,
  );
}
