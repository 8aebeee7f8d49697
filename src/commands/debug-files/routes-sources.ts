/**
 * Command spec of `debug-files bundle-sources` (API.md §21.7), apart from index.ts and
 * routes-upload.ts so each part of the noun merges on its own; index.ts spreads
 * `debugFilesSourcesRoutes` into its route map.
 */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `debug-files bundle-sources`. */
export interface BundleSourcesFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly output?: string;
  readonly dryRun: boolean;
}

const bundleSourcesCommand = buildCommand<BundleSourcesFlags, string[], TrackerContext>({
  loader: () => import("./bundle-sources.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "file",
        brief: "ELF or Mach-O files (or .dSYM bundles) with DWARF debug info",
        parse: String,
      },
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      output: {
        kind: "parsed",
        placeholder: "<dir>",
        parse: String,
        optional: true,
        brief: "Where to write the bundles (default: next to each file)",
      },
      dryRun: {
        kind: "boolean",
        default: false,
        brief: "Read the sources and say what would be bundled; write nothing",
      },
    },
    aliases: { o: "output" },
  },
  docs: {
    brief: "Bundle the source files an object's DWARF names, for source context",
    fullDescription: describe(
      'For each ELF or Mach-O object (each slice of a universal file; a .dSYM stands for its DWARF file) reads the source file names from its DWARF line tables (DWARF 2-5, compressed sections too), resolves them against the compilation directory, reads those that exist and writes a Sentry source bundle with the object\'s debug ID: <file>.src.zip (<file>.<n>.src.zip for slice n of a universal file) next to the file, or in --output. Only regular files of at most 1 MiB are read; a missing, unreadable or special file (FIFO, device, /proc) is left out with a note on stderr. An object with no readable source gets no bundle. The path of each bundle is printed on stdout; upload them with `tracker debug-files upload <bundle>`, or let `debug-files upload --include-sources` build and upload it.\n\n--json prints {"bundles": ["input", "arch", "debugId", "output", "size", "files": ["path", "zipPath"]], "skipped": ["path", "reason"], "dryRun"}.',
      [
        "tracker debug-files bundle-sources ./build/app",
        "tracker debug-files bundle-sources App.dSYM --output build/sources --json",
      ],
    ),
  },
});

/** The routes this part of `debug-files` adds. */
export const debugFilesSourcesRoutes = { "bundle-sources": bundleSourcesCommand };
