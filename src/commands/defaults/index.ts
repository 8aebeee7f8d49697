import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { environmentFlag } from "../../lib/filter-flags.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

const noArgs = { kind: "tuple", parameters: [] } as const;

const here = {
  kind: "boolean",
  optional: true,
  brief: "Only for the project around this directory (the one with .git or another project marker)",
} as const;

type Flags = { json: boolean; verbose: boolean; here?: boolean };
type SetFlags = Flags & { environment?: readonly string[] };

/** Routes of `tracker defaults`. */
export const defaultsRoutes = buildRouteMap({
  routes: {
    set: buildCommand<SetFlags, [string?], TrackerContext>({
      loader: () => import("./set.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          here,
          environment: { ...environmentFlag, brief: "Default environment of the list commands (repeatable)" },
        },
        aliases: { e: "environment" },
        positional: {
          kind: "tuple",
          parameters: [
            {
              placeholder: "org[/project]",
              brief: "<org> or <org>/<project>",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Store the default organization (and project)",
        fullDescription: describe(
          "Validates the target against the service and stores it as the default. With --here it applies only inside the current project (found as DSN detection finds it) and wins over the global default there. --environment stores the environments issue, trace, log, span, query and release lists filter on when given no -e (a global default; `defaults clear` removes it); it can be set alone or with a target.",
          [
            "tracker defaults set acme",
            "tracker defaults set acme/web",
            "tracker defaults set --here acme/api",
            "tracker defaults set --environment production",
          ],
        ),
      },
    }),
    show: buildCommand<{ json: boolean; verbose: boolean }, [], TrackerContext>({
      loader: () => import("./show.ts"),
      parameters: { flags: { ...globalFlags }, positional: noArgs },
      docs: {
        brief: "Show the default org, project and URL with their sources",
        fullDescription: describe(
          'Shows the organization, project and service URL a command uses here when given no target, and where each comes from: TRACKER_*/SENTRY_* variables, `defaults set --here`, stored defaults, sentry.properties or .sentryclirc; and the default environments (`defaults set --environment`), when set. A global default that a --here default shadows is listed as "Global: … (shadowed here by defaults --here)". --json adds "environments": [name] and "global": {"org", "project", "shadowed"} (null when no global default is stored).',
          ["tracker defaults", "tracker defaults show --json"],
        ),
      },
    }),
    clear: buildCommand<Flags, [], TrackerContext>({
      loader: () => import("./clear.ts"),
      parameters: { flags: { ...globalFlags, here }, positional: noArgs },
      docs: {
        brief: "Remove stored defaults",
        fullDescription: describe("Removes the stored defaults (--here: those of the current project).", [
          "tracker defaults clear",
          "tracker defaults clear --here",
        ]),
      },
    }),
  },
  defaultCommand: "show",
  docs: {
    brief: "Show, set or clear default org/project",
    fullDescription: describe(
      "Stored default organization and project, globally or for one project (--here). They apply when a command gets no target argument and TRACKER_ORG/TRACKER_PROJECT (SENTRY_ORG/SENTRY_PROJECT) are unset; they win over .sentryclirc/sentry.properties and DSN auto-detection.",
      ["tracker defaults set acme/web", "tracker defaults", "tracker defaults clear"],
    ),
  },
});
