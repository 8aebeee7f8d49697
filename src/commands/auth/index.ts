import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Routes of `tracker auth`. */
export const authRoutes = buildRouteMap({
  routes: {
    login: buildCommand<{ json: boolean; verbose: boolean; token?: string }, [], TrackerContext>({
      loader: () => import("./login.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          token: {
            kind: "parsed",
            parse: String,
            optional: true,
            inferEmpty: true,
            brief: "Log in with a pasted token (argument, masked prompt, or stdin)",
          },
        },
        positional: { kind: "tuple", parameters: [] },
      },
      docs: {
        brief: "Log in (OAuth device flow, or --token)",
        fullDescription: describe(
          "Logs in with the OAuth device flow, or stores a pasted token with --token.",
          ["tracker auth login", "tracker auth login --token", 'echo "$TOKEN" | tracker auth login --token'],
        ),
      },
    }),
    logout: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./logout.ts"),
      parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
      docs: {
        brief: "Remove stored credentials",
        fullDescription: describe("Removes the stored credentials.", ["tracker auth logout"]),
      },
    }),
    status: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./status.ts"),
      parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
      docs: {
        brief: "Show authentication state",
        fullDescription: describe(
          "Shows where the token comes from, who it belongs to, and the detected context.",
          ["tracker auth status", "tracker auth status --json"],
        ),
      },
    }),
  },
  docs: {
    brief: "Log in, log out, show status",
    fullDescription: describe("Authentication.", ["tracker auth login", "tracker auth status"]),
  },
});
