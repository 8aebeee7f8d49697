/**
 * Command specs of `debug-files upload`, `find`, `bundle-jvm` and `explain` (API.md §21). Kept
 * apart from index.ts (where `check` lives) so the two halves of the noun merge without conflict;
 * index.ts spreads `debugFilesUploadRoutes` into its route map.
 */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { eventOrIssuePositional, globalFlags, ignoreGlobFlag } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** The `--type` values (sentry-cli's; `dsym` = Mach-O, `jvm` = source bundles). */
export const DIF_TYPES = [
  "dsym",
  "macho",
  "elf",
  "pe",
  "pdb",
  "portablepdb",
  "wasm",
  "breakpad",
  "sourcebundle",
  "jvm",
  "bcsymbolmap",
] as const;
/** One `--type` value. */
export type DifTypeFlag = (typeof DIF_TYPES)[number];

/** Flags of `debug-files upload`. */
export interface DifUploadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly type?: readonly DifTypeFlag[];
  readonly id?: readonly string[];
  readonly requireAll: boolean;
  readonly symbolMaps?: string;
  readonly includeSources: boolean;
  readonly unwind: boolean;
  readonly debug: boolean;
  readonly sources: boolean;
  readonly zips: boolean;
  readonly wait: boolean;
  readonly dryRun: boolean;
}

/** Flags of `debug-files find`. */
export interface DifFindFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

/** Flags of `debug-files bundle-jvm`. */
export interface BundleJvmFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly debugId: string;
  readonly output?: string;
  readonly exclude?: readonly string[];
  readonly dryRun: boolean;
}

/** Flags of `debug-files explain`. */
export interface DifExplainFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

const dryRun = {
  kind: "boolean",
  default: false,
  brief: "Say what would be done; send or write nothing",
} as const;

const uploadCommand = buildCommand<DifUploadFlags, string[], TrackerContext>({
  loader: () => import("./upload.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "path",
        brief: "Files, directories or zips, then optionally <org>/<project>",
        parse: String,
      },
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      type: {
        kind: "enum",
        values: DIF_TYPES,
        variadic: true,
        optional: true,
        brief: "Only files of this type (repeatable)",
      },
      id: {
        kind: "parsed",
        placeholder: "<debug-id>",
        parse: String,
        variadic: true,
        optional: true,
        brief: "Only files with this debug ID (repeatable)",
      },
      requireAll: {
        kind: "boolean",
        default: false,
        brief: "Fail when a debug ID named by --id was not found",
      },
      symbolMaps: {
        kind: "parsed",
        placeholder: "<dir>",
        parse: String,
        optional: true,
        brief: "BCSymbolMaps to resolve hidden symbols (not supported yet: a warning)",
      },
      includeSources: {
        kind: "boolean",
        default: false,
        brief: "Also upload a bundle of the sources each file's DWARF names (see bundle-sources)",
      },
      unwind: {
        kind: "boolean",
        default: true,
        brief: "Upload files that only have unwind info (--no-unwind: skip them)",
      },
      debug: {
        kind: "boolean",
        default: true,
        brief: "Upload files with symbols/debug info (--no-debug: skip them)",
      },
      sources: { kind: "boolean", default: true, brief: "Upload source bundles (--no-sources: skip them)" },
      zips: { kind: "boolean", default: true, brief: "Search zip archives (--no-zips: skip them)" },
      wait: {
        kind: "boolean",
        default: false,
        brief: "Wait until the service has processed every file; fail on errors",
      },
      dryRun,
    },
    aliases: { t: "type" },
  },
  docs: {
    brief: "Upload debug information files (Breakpad, ELF, Mach-O/dSYM, PE/PDB, wasm, source bundles)",
    fullDescription: describe(
      `Walks the paths (directories, .dSYM bundles, zip archives), finds every debug information file and uploads those the service lacks: one assemble request for all, then only the missing chunks, in parallel. An unchanged re-upload costs one request. Files that are not debug information are skipped in a walk and are an error when named. A fat Mach-O goes as one file per architecture. --wait polls until the service has processed every file (at most its maxWait, else 5 minutes; progress on stderr) and exits non-zero when one failed. --include-sources builds a source bundle for each ELF/Mach-O file with debug info from the sources its DWARF names (as debug-files bundle-sources does; missing sources are notes) and uploads it beside the file as <name>.src.zip with the same debug ID. --dry-run hashes the files and prints the assemble request it would send. ${TARGET_HELP}\n\n--json prints {"org", "project", "files": [{"path", "name", "format", "arch", "debugId", "features", "size", "checksum", "state", "detail", "chunks": {"total", "sent"}}], "skipped": [{"path", "reason"}], "chunks": {"total", "sent", "skipped"}, "unchanged", "timedOut"}; with --dry-run {"dryRun": true, "requests": [{"method", "path", "body"}], "files": [...], "skipped": [...]}.`,
      [
        "tracker debug-files upload ./build/symbols acme/native",
        "tracker debug-files upload app.dSYM --type dsym --wait",
        "tracker debug-files upload symbols.zip --dry-run --json",
      ],
    ),
  },
});

const findCommand = buildCommand<DifFindFlags, string[], TrackerContext>({
  loader: () => import("./find.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "id|path",
        brief: "Debug IDs, then the paths to search (default: .)",
        parse: String,
      },
      minimum: 1,
    },
    flags: { ...globalFlags },
  },
  docs: {
    brief: "Find local debug information files by debug ID",
    fullDescription: describe(
      'Searches the paths (default: the current directory; directories, .dSYM bundles and zips, under the same rules as upload) for files with the given debug IDs. Nothing is sent. Exits non-zero, naming them on stderr, when an ID was not found.\n\n--json prints {"matches": [{"id", "path", "type"}], "missing": ["<id>"]}.',
      [
        "tracker debug-files find 3249d99d-0c40-4931-8610-f4e4fb0b6936-1 ./symbols",
        "tracker debug-files find <id> --json",
      ],
    ),
  },
});

const bundleJvmCommand = buildCommand<BundleJvmFlags, [string], TrackerContext>({
  loader: () => import("./bundle-jvm.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [{ placeholder: "dir", brief: "The source root of the JVM project", parse: String }],
    },
    flags: {
      ...globalFlags,
      debugId: {
        kind: "parsed",
        placeholder: "<uuid>",
        parse: String,
        brief: "The bundle's debug ID (the app's io.sentry.bundle-ids)",
      },
      output: {
        kind: "parsed",
        placeholder: "<dir>",
        parse: String,
        optional: true,
        brief: "Where to write <debug-id>.zip (default: .)",
      },
      exclude: ignoreGlobFlag,
      dryRun,
    },
  },
  docs: {
    brief: "Bundle Java/Kotlin/Scala/Groovy/Clojure sources for source context",
    fullDescription: describe(
      'Writes a JVM source bundle (<output>/<debug-id>.zip) of the source files under <dir>: each file\'s URL is ~/<package path>.jvm (the src/<set>/<language>/ prefix removed). Build output and IDE directories are left out. Upload it with `tracker debug-files upload <output>`.\n\n--json prints {"path", "debugId", "files": [{"path", "url"}], "skipped": [{"path", "reason"}], "dryRun"}.',
      [
        "tracker debug-files bundle-jvm . --debug-id 6a1ac21b-37d9-4c8e-9f4e-4bd1c1d5b2a1 --output build/sentry",
      ],
    ),
  },
});

const explainCommand = buildCommand<DifExplainFlags, [string, string?], TrackerContext>({
  loader: () => import("./explain.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: eventOrIssuePositional,
  },
  docs: {
    brief: "Explain why an event's native or JVM frames are not symbolicated",
    fullDescription: describe(
      `For each unsymbolicated frame of the event, says why: no file with its image's debug ID on the service, one without debug or unwind info, another architecture, a processing error the event carries (native_missing_dsym and kin), or a ProGuard mapping missing; then the command that fixes it. ${TARGET_HELP}\n\n--json prints {"eventId", "org", "project", "release", "images": [{"debugId", "codeFile", "arch", "status", "files"}], "frames": [{"function", "instructionAddr", "package", "debugId", "cause", "detail"}], "errors": [{"type", "detail"}], "fix"}.`,
      [
        "tracker debug-files explain 0123456789abcdef0123456789abcdef acme/native",
        "tracker debug-files explain NATIVE-4Y --json",
      ],
    ),
  },
});

/** The routes this half of `debug-files` adds. */
export const debugFilesUploadRoutes = {
  upload: uploadCommand,
  find: findCommand,
  "bundle-jvm": bundleJvmCommand,
  explain: explainCommand,
};
