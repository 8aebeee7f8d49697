/**
 * The rest of the sentry-cli table (forms.ts): issue and log forms without a counterpart, the
 * debug-file forms passed on to tracker's commands of the same flags, and the forms tracker has
 * no command for (each naming the closest one).
 */
import { TARGET } from "./flag-sets.ts";
import type { CompatForm } from "./types.ts";

/** Forms after the release, source-map, event, monitor and list forms, in help order. */
export const OTHER_FORMS: readonly CompatForm[] = [
  {
    words: "issues resolve",
    tracker: "issue resolve <issue>...",
    missing: "tracker issue resolve <issue>...",
  },
  { words: "issues mute", tracker: "issue archive <issue>...", missing: "tracker issue archive <issue>..." },
  {
    words: "issues unresolve",
    tracker: "issue unresolve <issue>...",
    missing: "tracker issue unresolve <issue>...",
  },
  {
    words: "events list",
    tracker: "issue events <issue>",
    missing: "tracker issue list, then tracker issue events <issue>",
  },
  {
    words: "logs list",
    tracker: "log list",
    flags: [
      ...TARGET,
      { names: ["--max-rows"], value: true, to: "-n" },
      { names: ["--query"], value: true, to: "-q" },
    ],
  },
  { words: "debug-files", tracker: "debug-files <verb> ...", passthrough: true, rest: true, flags: TARGET },
  {
    words: "dif",
    tracker: "debug-files <verb> ...",
    passthrough: true,
    rest: true,
  },
  {
    words: "upload-dif",
    tracker: "debug-files upload <path>...",
    passthrough: true,
    rest: true,
    flags: TARGET,
  },
  {
    words: "upload-dsym",
    tracker: "debug-files upload <path>...",
    passthrough: true,
    rest: true,
    flags: TARGET,
  },
  {
    words: "upload-proguard",
    tracker: "proguard upload <path>...",
    passthrough: true,
    rest: true,
    flags: TARGET,
  },
  {
    words: "dart-symbol-map upload",
    tracker: "dart-symbol-map upload <mapping> --debug-file <debug-file>",
    rest: true,
    flags: TARGET,
    // sentry-cli takes the debug file as its second word; tracker reads its debug ID the same way.
    build: (m) => {
      const [mapping, debugFile, extra] = m.positionals;
      if (mapping === undefined || debugFile === undefined || extra !== undefined)
        throw new Error("dart-symbol-map upload takes <mapping> <debug-file>");
      return ["dart-symbol-map", "upload", mapping, "--debug-file", debugFile];
    },
  },
  {
    words: "code-mappings upload",
    tracker: "code-mappings upload ...",
    passthrough: true,
    rest: true,
    flags: TARGET,
  },
  {
    words: "bash-hook",
    tracker: "monitor run / event send",
    missing: "tracker event send --logfile <file> in your error handler",
  },
  {
    words: "react-native",
    tracker: "sourcemap upload",
    missing: "tracker sourcemap inject, then tracker sourcemap upload --release <v>",
  },
  { words: "update", tracker: "upgrade", missing: "tracker upgrade" },
  {
    words: "uninstall",
    tracker: "upgrade",
    missing: "remove tracker's binary (tracker cli setup shows where it is)",
  },
  { words: "completions", tracker: "completion <shell>", missing: "tracker completion <shell>" },
];
