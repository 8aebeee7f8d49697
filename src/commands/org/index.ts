import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { freshFlag, globalFlags, webFlag } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** `org list`: organizations in every region. */
export const orgListCommand = buildCommand<
  { json: boolean; verbose: boolean; fresh: boolean },
  [],
  TrackerContext
>({
  loader: () => import("./list.ts"),
  parameters: { flags: { ...globalFlags, fresh: freshFlag }, positional: { kind: "tuple", parameters: [] } },
  docs: {
    brief: "List organizations you can access",
    fullDescription: describe(
      "Lists organizations in every region of the service (fetched in parallel). After a first listing the known regions are asked at once while the region list is re-checked (one round trip); --fresh starts from region discovery.",
      ["tracker org list", "tracker org list --json | jq -r '.[].slug'", "tracker org list --fresh"],
    ),
  },
});

/** Routes of `tracker org`. */
export const orgRoutes = buildRouteMap({
  routes: {
    list: orgListCommand,
    view: buildCommand<{ json: boolean; verbose: boolean; web: boolean }, [string?], TrackerContext>({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, web: webFlag },
        aliases: { w: "web" },
        positional: {
          kind: "tuple",
          parameters: [
            {
              placeholder: "org",
              brief: "Organization slug (default: TRACKER_ORG, stored defaults, or a DSN's organization)",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Show one organization",
        fullDescription: describe(
          "Shows an organization's details and region; --web opens its page in the browser instead.",
          ["tracker org view acme", "tracker org view acme --json", "tracker org view acme -w"],
        ),
      },
    }),
  },
  docs: {
    brief: "Inspect organizations",
    fullDescription: describe("Work with organizations.", ["tracker org list"]),
  },
});
