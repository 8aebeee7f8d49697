#!/usr/bin/env bun
/**
 * Entry point. `--version` is answered before anything else is loaded; everything else goes
 * through main.ts. Writing into a closed pipe ends the process quietly with code 0.
 */
import { STDERR_FD, STDOUT_FD, writeFd } from "./lib/stdio.ts";
import { VERSION } from "./lib/version.ts";

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "-V")) {
  writeFd(STDOUT_FD, `${VERSION}\n`);
} else {
  const fail = (err: unknown) => {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === "EPIPE") process.exit(0);
    // Crashes outside a command (e.g. a module failing to load) cannot use the logger: read the level here.
    const joined = ` ${argv.join(" ")} `;
    const debug =
      /^\s*(debug|trace)\s*$/i.test(process.env.TRACKER_LOG_LEVEL ?? "") ||
      /\s--(verbose|log-level[= ](debug|trace))\s/i.test(joined);
    const message = e?.message ?? String(err);
    const expected = err as { format?: () => string; exitCode?: number };
    writeFd(
      STDERR_FD,
      typeof expected?.format === "function" && typeof expected.exitCode === "number"
        ? `Error: ${expected.format()}\n`
        : debug
          ? `Error: ${message}\n${e?.stack ? `${e.stack}\n` : ""}`
          : `Error: ${message.split("\n")[0]}\nRun with --log-level debug for details.\n`,
    );
    process.exitCode = (err as { exitCode?: number })?.exitCode ?? 1;
  };
  import("./main.ts")
    .then(({ main }) => main(argv))
    .then((code) => {
      // Every write is synchronous and every command has finished by now: exiting here skips the
      // runtime's idle-loop teardown (about 1 ms of a listing).
      process.exit(code);
    }, fail);
}
