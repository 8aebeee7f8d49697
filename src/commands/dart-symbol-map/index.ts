import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** Flags of `dart-symbol-map upload`. */
export interface DartSymbolMapUploadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly debugId?: string;
  readonly debugFile?: string;
  readonly wait: boolean;
  readonly dryRun: boolean;
}

const uploadCommand = buildCommand<DartSymbolMapUploadFlags, [string, string?], TrackerContext>({
  loader: () => import("./upload.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "file",
          brief: "The map from `flutter build --extra-gen-snapshot-options=--save-obfuscation-map`",
          parse: String,
        },
        { placeholder: "org/project", brief: "The project the map is for", parse: String, optional: true },
      ],
    },
    flags: {
      ...globalFlags,
      debugId: {
        kind: "parsed",
        placeholder: "<id>",
        parse: String,
        optional: true,
        brief: "Debug ID of the app's native debug file the map belongs to",
      },
      debugFile: {
        kind: "parsed",
        placeholder: "<file>",
        parse: String,
        optional: true,
        brief: "The app's native debug file: its one debug ID (instead of --debug-id)",
      },
      wait: {
        kind: "boolean",
        default: true,
        brief: "Wait until the service has processed the map (--no-wait: do not)",
      },
      dryRun: { kind: "boolean", default: false, brief: "Print the assemble request; send nothing" },
    },
  },
  docs: {
    brief: "Upload a Dart/Flutter obfuscation map",
    fullDescription: describe(
      `Checks that the map is a JSON array of strings with an even number of entries, then uploads it (only missing chunks) as a dartsymbolmap tied to --debug-id (or the one debug ID of the --debug-file, as sentry-cli reads it), and waits for processing (at most 5 minutes; --no-wait to return at once). Needs a service that accepts dartsymbolmap (SaaS, self-hosted 25.8.0+). ${TARGET_HELP}\n\n--json prints the upload report {"org", "project", "files": [{"path", "name", "debugId", "size", "checksum", "state", "detail", …}], "chunks", "unchanged", "timedOut"}.`,
      [
        "tracker dart-symbol-map upload build/app/obfuscation.map.json acme/flutter --debug-id 3249d99d-0c40-4931-8610-f4e4fb0b6936",
      ],
    ),
  },
});

/** Routes of `tracker dart-symbol-map`. */
export const dartSymbolMapRoutes = buildRouteMap({
  routes: { upload: uploadCommand },
  docs: {
    brief: "Upload Dart/Flutter obfuscation maps",
    fullDescription: describe("Obfuscation maps let the service restore Dart symbol names.", [
      "tracker dart-symbol-map upload obfuscation.map.json --debug-id <id>",
    ]),
  },
});
