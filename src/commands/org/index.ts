import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** `org list`: organizations in every region. */
export const orgListCommand = buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
  docs: {
    brief: "List organizations you can access",
    fullDescription: describe("Lists organizations in every region of the service (fetched in parallel).", [
      "tracker org list",
      "tracker org list --json | jq -r '.[].slug'",
    ]),
  },
});

/** Routes of `tracker org`. */
export const orgRoutes = buildRouteMap({
  routes: {
    list: orgListCommand,
    view: buildCommand<{ json: boolean; verbose: boolean }, [string], TrackerContext>({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags },
        positional: {
          kind: "tuple",
          parameters: [{ placeholder: "org", brief: "Organization slug", parse: String }],
        },
      },
      docs: {
        brief: "Show one organization",
        fullDescription: describe("Shows an organization's details and region.", [
          "tracker org view acme",
          "tracker org view acme --json",
        ]),
      },
    }),
  },
  docs: {
    brief: "Inspect organizations",
    fullDescription: describe("Work with organizations.", ["tracker org list"]),
  },
});
