import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** Flags of `proguard upload`. */
export interface ProguardUploadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly uuid?: string;
  readonly writeProperties?: string;
  readonly upload: boolean;
  readonly requireOne: boolean;
  readonly release?: string;
  readonly wait: boolean;
  readonly dryRun: boolean;
}

/** Flags of `proguard uuid`. */
export interface ProguardUuidFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

const uploadCommand = buildCommand<ProguardUploadFlags, string[], TrackerContext>({
  loader: () => import("./upload.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "mapping",
        brief: "ProGuard/R8 mapping files, then optionally <org>/<project>",
        parse: String,
      },
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      uuid: {
        kind: "parsed",
        placeholder: "<uuid>",
        parse: String,
        optional: true,
        brief: "Use this UUID instead of the computed one (one mapping only)",
      },
      writeProperties: {
        kind: "parsed",
        placeholder: "<file>",
        parse: String,
        optional: true,
        brief: "Write io.sentry.ProguardUuids into this properties file (other keys kept)",
      },
      upload: {
        kind: "boolean",
        default: true,
        brief: "Upload (--no-upload: only compute UUIDs and write --write-properties)",
      },
      requireOne: { kind: "boolean", default: false, brief: "Fail unless exactly one mapping file is given" },
      release: {
        kind: "parsed",
        placeholder: "<version>",
        parse: String,
        optional: true,
        brief: "Also associate the mapping with this release",
      },
      wait: { kind: "boolean", default: false, brief: "Wait until the service has processed the mappings" },
      dryRun: {
        kind: "boolean",
        default: false,
        brief: "Print the assemble request; send and write nothing",
      },
    },
  },
  docs: {
    brief: "Upload ProGuard/R8 mapping files",
    fullDescription: describe(
      `Computes each mapping's UUID (the one sentry-cli and the Android Gradle plugin compute), uploads the mappings the service lacks (only missing chunks), and with --write-properties records the UUIDs in the properties file the Android SDK reads. ${TARGET_HELP}\n\n--json prints {"org", "project", "mappings": [{"path", "uuid", "size", "state", "detail"}], "uploaded", "propertiesFile", "release"}; with --dry-run {"dryRun": true, "requests": [...], "files": [...]}.`,
      [
        "tracker proguard upload app/build/outputs/mapping/release/mapping.txt acme/android",
        "tracker proguard upload mapping.txt --write-properties app/src/main/assets/sentry-debug-meta.properties",
      ],
    ),
  },
});

const uuidCommand = buildCommand<ProguardUuidFlags, [string], TrackerContext>({
  loader: () => import("./uuid.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [{ placeholder: "mapping", brief: "A ProGuard/R8 mapping file", parse: String }],
    },
    flags: { ...globalFlags },
  },
  docs: {
    brief: "Print the UUID of a ProGuard/R8 mapping file",
    fullDescription: describe(
      'The UUID sentry-cli computes for the same file (a version-5 UUID of its bytes). Nothing is sent.\n\n--json prints {"path", "uuid"}.',
      ["tracker proguard uuid mapping.txt"],
    ),
  },
});

/** Routes of `tracker proguard`. */
export const proguardRoutes = buildRouteMap({
  routes: { upload: uploadCommand, uuid: uuidCommand },
  docs: {
    brief: "Upload ProGuard/R8 mappings for Android stack traces",
    fullDescription: describe("ProGuard and R8 mapping files: their UUIDs and their upload.", [
      "tracker proguard upload mapping.txt acme/android",
      "tracker proguard uuid mapping.txt",
    ]),
  },
});
