/** The spec of `release propose-version` (sentry-cli's `releases propose-version`). */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { RELEASE_NAME_VARIABLES } from "../../lib/release/propose.ts";
import type { ReleaseReadFlags } from "./index.ts";

/** `release propose-version`. */
export const proposeVersionCommand = buildCommand<ReleaseReadFlags, [], TrackerContext>({
  loader: () => import("./propose-version.ts"),
  parameters: { flags: { ...globalFlags }, positional: { kind: "tuple", parameters: [] } },
  docs: {
    brief: "Print a release name for this build",
    fullDescription: describe(
      `Prints the first non-empty of ${RELEASE_NAME_VARIABLES.join(", ")}, else the sha of HEAD (as sentry-cli's releases propose-version does). Sends nothing. --json prints {"version", "source"} (the variable's name, or git).`,
      ['VERSION="$(tracker release propose-version)"', "tracker release propose-version --json"],
    ),
  },
});
