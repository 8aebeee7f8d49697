import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `cli setup`. */
export interface SetupFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly modifyPath: boolean;
  readonly agentSkills: boolean;
  readonly method?: "curl" | "npm" | "brew";
  /** `--sentry-cli-link [dir]`: "" = next to tracker. */
  readonly sentryCliLink?: string;
  readonly force: boolean;
}

/** Routes of `tracker cli`. */
export const cliRoutes = buildRouteMap({
  routes: {
    fix: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./fix.ts"),
      parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
      docs: {
        brief: "Repair the local database schema",
        fullDescription: describe(
          "Creates missing tables and columns of the local database and reports what changed.",
          ["tracker cli fix"],
        ),
      },
    }),
    setup: buildCommand<SetupFlags, [], TrackerContext>({
      loader: () => import("./setup.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          modifyPath: {
            kind: "boolean",
            default: true,
            withNegated: true,
            brief: "Add the install dir to PATH in shell startup files",
          },
          agentSkills: {
            kind: "boolean",
            default: true,
            withNegated: true,
            brief: "Install the agent skill file",
          },
          method: {
            kind: "enum",
            values: ["curl", "npm", "brew"],
            optional: true,
            brief: "Record how tracker was installed",
          },
          sentryCliLink: {
            kind: "parsed",
            parse: String,
            optional: true,
            inferEmpty: true,
            placeholder: "dir",
            brief:
              "Also link sentry-cli to tracker (next to it, or in <dir>): sentry-cli scripts run tracker",
          },
          force: {
            kind: "boolean",
            default: false,
            brief: "With --sentry-cli-link: replace an existing sentry-cli",
          },
        },
        positional: { kind: "tuple", parameters: [] },
      },
      docs: {
        brief: "Post-install setup: PATH and agent skill file",
        fullDescription: describe(
          "Adds the install dir to PATH and installs skills/tracker-cli/SKILL.md for AI agents. --sentry-cli-link also creates a sentry-cli link to tracker (next to it, or in the directory given): started by that name, tracker reads sentry-cli's command line (tracker help sentry-cli), so CI files and build plugins (SENTRY_CLI_BINARY) work unchanged. An existing sentry-cli is replaced only with --force.",
          [
            "tracker cli setup",
            "tracker cli setup --no-modify-path",
            "tracker cli setup --sentry-cli-link ~/.local/bin --no-modify-path --no-agent-skills",
          ],
        ),
      },
    }),
  },
  docs: {
    brief: "Maintain the CLI itself",
    fullDescription: describe("Local maintenance.", ["tracker cli fix"]),
  },
});
