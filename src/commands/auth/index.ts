import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { LOGIN_SCOPES, parseScope, READ_ONLY_SCOPES } from "../../lib/auth/scopes.ts";

/** Routes of `tracker auth`. */
export const authRoutes = buildRouteMap({
  routes: {
    login: buildCommand<
      {
        json: boolean;
        verbose: boolean;
        token?: string;
        force: boolean;
        url?: string;
        scope?: string[];
        readOnly: boolean;
      },
      [],
      TrackerContext
    >({
      loader: () => import("./login.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          token: {
            kind: "parsed",
            parse: String,
            optional: true,
            inferEmpty: true,
            placeholder: "<token>",
            brief: "Log in with a pasted token (argument, masked prompt, or stdin)",
          },
          force: {
            kind: "boolean",
            default: false,
            brief: "Replace an existing login to this service URL without asking",
          },
          url: {
            kind: "parsed",
            parse: String,
            optional: true,
            placeholder: "<url>",
            brief: "Log in to this service URL (as TRACKER_URL would) and add it to the stored logins",
          },
          scope: {
            kind: "parsed",
            parse: parseScope,
            optional: true,
            variadic: true,
            placeholder: "<scope>",
            brief: "Also ask for this scope (repeatable), e.g. project:write",
          },
          readOnly: {
            kind: "boolean",
            default: false,
            brief: `Ask for a token that cannot change anything (${READ_ONLY_SCOPES.join(" ")})`,
          },
        },
        positional: { kind: "tuple", parameters: [] },
      },
      docs: {
        brief: "Log in (OAuth device flow, or --token)",
        fullDescription: describe(
          `Logs in with the OAuth device flow: shows a code to approve in the browser, then stores an access token that is refreshed automatically. It asks for the scopes tracker's commands need (${LOGIN_SCOPES.join(" ")}: issues, events, releases, deploys, commits and uploads); --scope asks for more, --read-only for a token that can only read (${READ_ONLY_SCOPES.join(" ")}). Self-hosted servers (TRACKER_URL) need version 26.1.0 or later and TRACKER_CLIENT_ID (the client ID of a Public OAuth application); older ones use --token. With --token, a user auth token, org auth token or OAuth token is checked against the service before it is stored; without a value it is read from a masked prompt, or from stdin when piped. Credentials are stored per service URL, several side by side: a login to another URL is added next to the others (--url or TRACKER_URL names the service). The service is --url, else TRACKER_URL or SENTRY_URL, else sentry.io, and the first stderr line says which: a url in .sentryclirc or sentry.properties never decides where a credential is sent to be stored, and an org token is checked and stored for the service its claim names. Already logged in to that URL, it asks before replacing the login on a terminal (--force, --json or no terminal: replaces it and says so). TRACKER_AUTH_TOKEN and TRACKER_TOKEN, when set, take precedence over stored credentials.`,
          [
            "tracker auth login",
            "tracker auth login --read-only",
            "tracker auth login --scope project:write",
            "tracker auth login --token",
            'echo "$TOKEN" | tracker auth login --token',
            "tracker auth login --url https://sentry.example.com --token",
            "TRACKER_URL=https://sentry.example.com TRACKER_CLIENT_ID=<id> tracker auth login",
          ],
        ),
      },
    }),
    logout: buildCommand<{ json: boolean; verbose: boolean; url?: string; all: boolean }, [], TrackerContext>(
      {
        loader: () => import("./logout.ts"),
        parameters: {
          flags: {
            ...globalFlags,
            url: {
              kind: "parsed",
              parse: String,
              optional: true,
              placeholder: "<url>",
              brief: "Remove the login of this service URL instead of the current one",
            },
            all: { kind: "boolean", default: false, brief: "Remove every stored login" },
          },
          positional: { kind: "tuple", parameters: [] },
        },
        docs: {
          brief: "Remove stored credentials",
          fullDescription: describe(
            "Removes the stored login of the current service URL (TRACKER_URL, else the only stored login, else the hosted service); --url removes another one, --all every one. Other logins stay. Environment tokens (TRACKER_AUTH_TOKEN, TRACKER_TOKEN) are not affected.",
            [
              "tracker auth logout",
              "tracker auth logout --url https://sentry.example.com",
              "tracker auth logout --all",
            ],
          ),
        },
      },
    ),
    status: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./status.ts"),
      parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
      docs: {
        brief: "Show authentication state",
        fullDescription: describe(
          'Starts with the result ("Logged in to <host> as <user> (<source>)" or "Not logged in to <host>"), then where the token comes from (TRACKER_AUTH_TOKEN, TRACKER_TOKEN or stored), its kind, a redacted form, its expiry, the user, reachable organizations, stored defaults and the detected DSN. The local state is shown even when the service is unreachable. Exits 0 when authenticated; when not (no token, expired, rejected, or a login for another URL) it still reports, then exits with the code of that reason (10 when there is no token), so scripts can write `tracker auth status || tracker auth login`. --json is always one document with "authenticated" (false with a "reason" when not logged in).',
          ["tracker auth status", "tracker auth status --json", "tracker auth status || tracker auth login"],
        ),
      },
    }),
    token: buildCommand<{ json: boolean; verbose: boolean; show: boolean }, [], TrackerContext>({
      loader: () => import("./token.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          show: {
            kind: "boolean",
            default: false,
            brief: "Print it on a terminal too (it is printed only when stdout is piped otherwise)",
          },
        },
        positional: { kind: "tuple", parameters: [] },
      },
      docs: {
        brief: "Print the token in use (for curl and other tools)",
        fullDescription: describe(
          'Prints the token the next request would carry (TRACKER_AUTH_TOKEN, TRACKER_TOKEN, SENTRY_AUTH_TOKEN, the stored login, refreshed first when close to expiry, or a configuration file\'s token) and nothing else, for other tools. On a terminal it refuses unless --show says to print it there. Where it came from is on stderr at --log-level info; the token never goes into a log. --json prints {"token", "source"}. Exits 10 when there is no token.',
          [
            'curl -H "Authorization: Bearer $(tracker auth token)" https://sentry.io/api/0/auth/',
            "tracker auth token --show",
          ],
        ),
      },
    }),
  },
  docs: {
    brief: "Log in, log out, show status, print the token",
    fullDescription: describe(
      "Authentication. Token precedence: TRACKER_AUTH_TOKEN, then TRACKER_TOKEN, then stored credentials.",
      ["tracker auth login", "tracker auth status"],
    ),
  },
});
