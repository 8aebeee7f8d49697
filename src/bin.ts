#!/usr/bin/env bun
/**
 * Entry point. `--version` is answered before anything else is loaded, `--help` from the generated
 * root help; everything else goes through main.ts. Writing into a closed pipe ends the process quietly with code 0.
 */
import { readFileSync } from "node:fs";
import { isTerminal, STDERR_FD, STDOUT_FD, terminalColumns, writeFd } from "./lib/stdio.ts";
import { VERSION } from "./lib/version.ts";

/**
 * The name the executable was started by: a link named `sentry-cli` (tracker cli setup
 * --sentry-cli-link) makes the run sentry-cli's. A compiled binary has it in argv0; a script
 * started through its `#!` line has bun there and the resolved link in argv[1], so on Linux the
 * kernel's command line (the path as typed) is asked.
 */
function invokedName(): string {
  let name = process.argv0;
  if (process.platform === "linux" && /(^|[\\/])bun(\.exe)?$/.test(name)) {
    try {
      name = readFileSync("/proc/self/cmdline", "utf8").split("\0")[1] ?? name;
    } catch {
      // No /proc: the run is tracker's.
    }
  }
  return (name.split(/[\\/]/).pop() ?? "").replace(/\.exe$/i, "");
}

const argv =
  invokedName() === "sentry-cli" ? ["sentry-cli", ...process.argv.slice(2)] : process.argv.slice(2);

/** A failure outside a command: a closed pipe ends quietly, anything else is reported. */
const fail = async (err: unknown) => {
  if ((err as NodeJS.ErrnoException)?.code === "EPIPE") process.exit(0);
  // Crashes outside a command (e.g. a module failing to load) cannot use the logger: read the level here.
  const joined = ` ${argv.join(" ")} `;
  const debug =
    /^\s*(debug|trace)\s*$/i.test(process.env.TRACKER_LOG_LEVEL ?? "") ||
    /\s--(verbose|log-level[= ](debug|trace))\s/i.test(joined);
  const { exitCodeFor, renderError } = await import("./lib/error-render.ts");
  writeFd(STDERR_FD, `${renderError(err, debug)}\n`);
  process.exitCode = exitCodeFor(err);
};

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "-V")) {
  // A full disk or a closed pipe is an error like any other, not a crash with a stack.
  try {
    writeFd(STDOUT_FD, `${VERSION}\n`);
  } catch (err) {
    void fail(err);
  }
} else if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
  // The root help is generated from the route map (lib/root-help.ts): building the 76 command
  // specs to render it took about 10 ms of each `tracker --help`.
  Promise.all([import("./lib/root-help.ts"), import("./lib/help-format.ts")])
    .then(([{ ROOT_HELP }, { wrapHelp }]) => {
      const width = isTerminal(STDOUT_FD) ? terminalColumns(process.env) : 80;
      writeFd(STDOUT_FD, wrapHelp(ROOT_HELP, width));
    })
    .catch(fail);
} else {
  import("./main.ts")
    .then(({ main }) => main(argv))
    .then((code) => {
      // Every write is synchronous and every command has finished by now: exiting here skips the
      // runtime's idle-loop teardown (about 1 ms of a listing).
      process.exit(code);
    }, fail);
}
