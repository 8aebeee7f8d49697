import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `upgrade`. */
export interface UpgradeFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly check: boolean;
  readonly method?: "curl" | "npm" | "brew";
}

/** `tracker upgrade [version]`. */
export const upgradeCommand = buildCommand<UpgradeFlags, [string?], TrackerContext>({
  loader: () => import("./upgrade.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      check: { kind: "boolean", default: false, brief: "Only report whether a newer version exists" },
      method: {
        kind: "enum",
        values: ["curl", "npm", "brew"],
        optional: true,
        brief: "Override the detected install method",
      },
    },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "version",
          brief: "Version to install (default: latest)",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "Upgrade tracker",
    fullDescription: describe(
      "Upgrades tracker the way it was installed. Install-script binaries are downloaded beside the old one, checked against the release checksum, self-tested with --version and swapped in atomically; npm installs run `npm install -g tracker-cli@<version>`; Homebrew installs run `brew upgrade` (no specific versions). A binary found elsewhere (e.g. pinned in a CI image) is left alone: exit 50 with the download URL, or pass --method. The newest version comes from the release's manifest.json at TRACKER_RELEASE_URL (or the built-in location). Already up to date exits 0.",
      [
        "tracker upgrade",
        "tracker upgrade --check",
        "tracker upgrade 0.2.0",
        "tracker upgrade --method curl",
      ],
    ),
  },
});
