import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { freshFlag, globalFlags, webFlag } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** `project list [<org>]`. */
export const projectListCommand = buildCommand<
  { json: boolean; verbose: boolean; fresh: boolean },
  [string?],
  TrackerContext
>({
  loader: () => import("./list.ts"),
  parameters: {
    flags: { ...globalFlags, fresh: freshFlag },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "org",
          brief: "Organization slug (auto-detected when omitted)",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "List projects of an organization",
    fullDescription: describe(
      "Lists every project of an organization (all pages). Organization: the argument, else TRACKER_ORG, then `tracker defaults set`, then the org of a DSN found in TRACKER_DSN, .env files or source code.",
      ["tracker project list acme", "tracker project list --json"],
    ),
  },
});

/** Routes of `tracker project`. */
export const projectRoutes = buildRouteMap({
  routes: {
    list: projectListCommand,
    view: buildCommand<
      { json: boolean; verbose: boolean; fresh: boolean; web: boolean },
      [string?],
      TrackerContext
    >({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, fresh: freshFlag, web: webFlag },
        aliases: { w: "web" },
        positional: {
          kind: "tuple",
          parameters: [
            {
              placeholder: "org/project",
              brief: "Target (auto-detected when omitted)",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Show one project with its DSN",
        fullDescription: describe(
          `Shows a project's details and its public DSN; --web opens its page in the browser instead. ${TARGET_HELP}`,
          [
            "tracker project view acme/web",
            "tracker project view --json",
            "tracker project view acme/web --web",
          ],
        ),
      },
    }),
  },
  docs: {
    brief: "List and inspect projects",
    fullDescription: describe("Work with projects.", ["tracker project list acme"]),
  },
});
