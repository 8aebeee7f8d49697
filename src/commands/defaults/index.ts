import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

const noArgs = { kind: "tuple", parameters: [] } as const;

/** Routes of `tracker defaults`. */
export const defaultsRoutes = buildRouteMap({
  routes: {
    set: buildCommand<{ json: boolean; verbose: boolean }, [string], TrackerContext>({
      loader: () => import("./set.ts"),
      parameters: {
        flags: { ...globalFlags },
        positional: {
          kind: "tuple",
          parameters: [{ placeholder: "org[/project]", brief: "<org> or <org>/<project>", parse: String }],
        },
      },
      docs: {
        brief: "Store the default organization (and project)",
        fullDescription: describe("Validates the target against the service and stores it as the default.", [
          "tracker defaults set acme",
          "tracker defaults set acme/web",
        ]),
      },
    }),
    show: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./show.ts"),
      parameters: { flags: { ...globalFlags }, positional: noArgs },
      docs: {
        brief: "Show stored defaults",
        fullDescription: describe("Shows the stored defaults.", [
          "tracker defaults",
          "tracker defaults show --json",
        ]),
      },
    }),
    clear: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./clear.ts"),
      parameters: { flags: { ...globalFlags }, positional: noArgs },
      docs: {
        brief: "Remove stored defaults",
        fullDescription: describe("Removes the stored defaults.", ["tracker defaults clear"]),
      },
    }),
  },
  defaultCommand: "show",
  docs: {
    brief: "Show, set or clear default org/project",
    fullDescription: describe(
      "Stored default organization and project. They apply when a command gets no target argument and TRACKER_ORG/TRACKER_PROJECT are unset; they win over DSN auto-detection.",
      ["tracker defaults set acme/web", "tracker defaults", "tracker defaults clear"],
    ),
  },
});
