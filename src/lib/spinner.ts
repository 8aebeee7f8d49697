/**
 * The progress spinner of a terminal (stderr only). Unlike @clack/prompts' spinner it never
 * touches stdin: clack's puts the terminal in raw mode, so Ctrl-C reached it as a key and it
 * called process.exit(0), and `auth login` interrupted on a colour terminal "succeeded". Here
 * Ctrl-C stays the terminal's SIGINT: the line is cleared, the cursor shown, and the run ends
 * with 130 (128 + SIGINT) without changing anything.
 */
import { EXIT } from "./exit-codes.ts";

const FRAMES = ["◒", "◐", "◓", "◑"];
const FRAME_MS = 80;
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const CLEAR_LINE = "\r\x1b[2K";

/** A running spinner: `stop` ends it with a message (✔), `fail` with an error mark. */
export interface Spinner {
  stop(message?: string): void;
  fail(message?: string): void;
}

/** Where the spinner draws (process.stderr in the CLI). */
export interface SpinnerOutput {
  write(text: string): unknown;
}

/** Starts drawing `text` with a turning frame on `out`, a terminal; `text` is already sanitised. */
export function startSpinner(out: SpinnerOutput, text: string, color: boolean): Spinner {
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[39m` : s);
  let frame = 0;
  const draw = () => {
    out.write(`${CLEAR_LINE}${paint("35", FRAMES[frame] as string)}  ${text}`);
    frame = (frame + 1) % FRAMES.length;
  };
  const end = (line: string) => {
    clearInterval(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    out.write(`${CLEAR_LINE}${line}\n${SHOW_CURSOR}`);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    end(`${paint("31", "■")}  Cancelled.`);
    process.exit(signal === "SIGTERM" ? 128 + 15 : EXIT.cancelled);
  };
  out.write(HIDE_CURSOR);
  draw();
  const timer = setInterval(draw, FRAME_MS);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    stop: (message = text) => end(`${paint("32", "◇")}  ${message}`),
    fail: (message = text) => end(`${paint("31", "▲")}  ${message}`),
  };
}
