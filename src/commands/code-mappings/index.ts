import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** Flags of `code-mappings upload`. */
export interface CodeMappingsUploadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly repo?: string;
  readonly defaultBranch?: string;
  readonly dryRun: boolean;
}

const uploadCommand = buildCommand<CodeMappingsUploadFlags, [string, string?], TrackerContext>({
  loader: () => import("./upload.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "file", brief: 'JSON array of {"stackRoot", "sourceRoot"}', parse: String },
        {
          placeholder: "org/project",
          brief: "The project the mappings are for",
          parse: String,
          optional: true,
        },
      ],
    },
    flags: {
      ...globalFlags,
      repo: {
        kind: "parsed",
        placeholder: "<owner/repo>",
        parse: String,
        optional: true,
        brief: "Repository (default: origin's owner/repo)",
      },
      defaultBranch: {
        kind: "parsed",
        placeholder: "<branch>",
        parse: String,
        optional: true,
        brief: "Branch (default: origin's HEAD branch, else main)",
      },
      dryRun: { kind: "boolean", default: false, brief: "Print the requests; send nothing" },
    },
  },
  docs: {
    brief: "Create or update code mappings (stack-trace paths → repository paths) in bulk",
    fullDescription: describe(
      `Sends the mappings in requests of 300; each is created or updated by its stackRoot. Exits non-zero when one failed. ${TARGET_HELP}\n\n--json prints {"org", "project", "repository", "defaultBranch", "created", "updated", "errors", "mappings": [{"stackRoot", "sourceRoot", "status", "detail"}]}; with --dry-run {"dryRun": true, "requests": [{"method", "path", "body"}]}.`,
      ["tracker code-mappings upload mappings.json acme/android --repo acme/android --default-branch main"],
    ),
  },
});

/** Routes of `tracker code-mappings`. */
export const codeMappingsRoutes = buildRouteMap({
  routes: { upload: uploadCommand },
  docs: {
    brief: "Upload code mappings for stack-trace links and source context",
    fullDescription: describe("Code mappings tie stack-trace paths to files in a repository.", [
      "tracker code-mappings upload mappings.json acme/android",
    ]),
  },
});
