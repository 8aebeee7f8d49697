/**
 * Direct writes to the standard file descriptors. Node-style `process.stdout`/`process.stderr`
 * streams cost about 2.5 ms to set up in a compiled binary, more than the rest of a `--version`
 * run, so ordinary output never touches them; only interactive prompts and spinners (TTY only) do.
 * For the same reason `node:tty` is not imported: loading it costs about 3 ms (it pulls in the
 * stream and socket modules) just to ask isatty(3).
 */
import { writeSync } from "node:fs";
import type { TextSink } from "./log.ts";

/** Standard output's file descriptor. */
export const STDOUT_FD = 1;
/** Standard error's file descriptor. */
export const STDERR_FD = 2;

/**
 * Writes all of `text` synchronously. A closed pipe (`tracker ... | head -1`) ends the process
 * quietly with code 0; a non-blocking descriptor that is momentarily full is retried; any other
 * failure is an error naming the stream.
 */
export function writeFd(fd: number, text: string): void {
  let buf: Buffer | undefined;
  let offset = 0;
  for (;;) {
    try {
      if (!buf) {
        // The common case: one write of the whole string, without copying it into a Buffer first.
        const written = writeSync(fd, text);
        if (written === Buffer.byteLength(text)) return;
        buf = Buffer.from(text, "utf8");
        offset = written;
      } else {
        offset += writeSync(fd, buf, offset);
      }
      if (offset >= buf.length) return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        Bun.sleepSync(1);
        continue;
      }
      if (code === "EPIPE") process.exit(0);
      // A full disk (`> /dev/full`) or a broken device: say which stream, not a bare errno.
      const stream = fd === 1 ? "standard output" : fd === 2 ? "standard error" : `descriptor ${fd}`;
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`Could not write to ${stream}: ${reason}`, { cause: err });
    }
  }
}

/** A sink writing to a file descriptor. */
export function fdSink(fd: number): TextSink {
  return { write: (text) => writeFd(fd, text) };
}

let ttyCheck: ((fd: number) => boolean) | undefined;

/**
 * isatty(3) without loading `node:tty`: Bun's native `tty_wrap` binding answers in microseconds;
 * `node:tty` remains the fallback should a runtime lack the binding.
 */
function ttyChecker(): (fd: number) => boolean {
  if (ttyCheck) return ttyCheck;
  try {
    const binding = (process as unknown as { binding(name: string): { isTTY?: unknown } }).binding(
      "tty_wrap",
    );
    const isTTY = binding.isTTY;
    if (typeof isTTY === "function") {
      ttyCheck = (fd) => isTTY.call(binding, fd) === true;
      return ttyCheck;
    }
  } catch {
    // No binding: use the module.
  }
  const { isatty } = require("node:tty") as typeof import("node:tty");
  ttyCheck = isatty;
  return ttyCheck;
}

/** True when the descriptor is a terminal. */
export function isTerminal(fd: number): boolean {
  try {
    return ttyChecker()(fd);
  } catch {
    return false;
  }
}

/** Rows of the terminal on stdout (LINES, else the TTY's size, else 24). */
export function terminalRows(env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.LINES);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return isTerminal(STDOUT_FD) ? process.stdout.rows || 24 : 24;
}

/** Columns of the terminal on stdout (COLUMNS, else the TTY's size, else 80). */
export function terminalColumns(env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return isTerminal(STDOUT_FD) ? process.stdout.columns || 80 : 80;
}
