import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { debugFilesSourcesRoutes } from "./routes-sources.ts";
import { debugFilesUploadRoutes } from "./routes-upload.ts";

/** Flags of `debug-files check`. */
export interface CheckFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

const checkCommand = buildCommand<CheckFlags, [string], TrackerContext>({
  loader: () => import("./check.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [{ placeholder: "file", brief: "One debug information file", parse: String }],
    },
    flags: { ...globalFlags },
  },
  docs: {
    brief: "Show a debug information file's format, architectures, debug IDs and features",
    fullDescription: describe(
      'Reads the headers of one file (ELF, Mach-O thin or universal, PE, PDB, Portable PDB, WebAssembly, source bundle) and prints its kind, each architecture\'s debug ID and code ID, and its features (symtab, debug, unwind, sources): the same IDs and features sentry-cli\'s `debug-files check` prints and the service computes. Only headers are read, so a file of any size takes a moment. A file that is not usable (no debug ID, or no symbols, debug or unwind information) is printed, then reported as an error; a file that is not debug information, or is truncated or corrupt, is an error.\n\n--json prints {"path", "format", "kind", "objects": [{"format", "kind", "arch", "debugId", "codeId", "features", "offset", "size", "debugFile"?}], "features", "usable", "problem"}.',
      [
        "tracker debug-files check ./build/app",
        "tracker debug-files check App.dSYM/Contents/Resources/DWARF/App --json",
      ],
    ),
  },
});

/** `tracker debug-files …` (alias `dif`). */
export const debugFilesRoutes = buildRouteMap({
  routes: { check: checkCommand, ...debugFilesUploadRoutes, ...debugFilesSourcesRoutes },
  docs: {
    brief: "Check, find, upload and explain debug information files (native, mobile, JVM symbols)",
    fullDescription: describe(
      "Debug information files: what symbolication of native and JVM crashes needs. check reads one file's headers; find looks for debug IDs on disk; upload sends what the service lacks (chunked, resumable); bundle-jvm builds a JVM source bundle; bundle-sources bundles the sources a native object's DWARF names; explain says why an event's frames are not symbolicated.",
      [
        "tracker debug-files check ./build/app",
        "tracker debug-files upload ./symbols acme/native",
        "tracker debug-files find <debug-id> ./symbols",
        "tracker debug-files explain <event-id> acme/native",
      ],
    ),
  },
});
