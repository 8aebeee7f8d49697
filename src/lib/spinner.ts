/**
 * The one progress spinner (AI analysis, waiting for a device-flow approval): on a terminal's
 * stderr only, debug log lines elsewhere. It never touches stdin: @clack/prompts' spinner put the
 * terminal in raw mode, so Ctrl-C reached it as a key and it called process.exit(0), and an
 * interrupted `auth login` on a colour terminal "succeeded". Here Ctrl-C stays the terminal's
 * SIGINT: the line is cleared, the cursor shown, and the run ends with 130 (128 + SIGINT) without
 * changing anything.
 */
import type { TrackerContext } from "../context.ts";
import { canAnimate } from "./automation.ts";
import { EXIT } from "./exit-codes.ts";
import { sanitizeTerminal } from "./sanitize.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Spinner frame interval. */
export const SPINNER_INTERVAL_MS = 100;
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";

/** A progress line that can be updated and must be stopped (with a closing line, or none). */
export interface Spinner {
  update(text: string): void;
  stop(message?: string): void;
  fail(message?: string): void;
}

/** Starts a spinner on stderr when it is a terminal that may animate; elsewhere only logs step changes at debug level. */
export function startSpinner(ctx: TrackerContext, initial: string): Spinner {
  let text = initial;
  if (!ctx.isStderrTTY || !canAnimate(ctx)) {
    ctx.log.debug(initial);
    return {
      update(next) {
        if (next !== text) ctx.log.debug(next);
        text = next;
      },
      stop() {},
      fail() {},
    };
  }
  const out = ctx.terminal ?? ctx.stderr;
  const paint = (code: string, s: string) => (ctx.color ? `\x1b[${code}m${s}\x1b[39m` : s);
  let frame = 0;
  const draw = () => {
    out.write(`\r${paint("36", FRAMES[frame % FRAMES.length] as string)} ${sanitizeTerminal(text)}\x1b[K`);
    frame++;
  };
  const end = (line: string | undefined) => {
    clearInterval(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    out.write(`\r\x1b[K${line === undefined ? "" : `${line}\n`}${SHOW_CURSOR}`);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    end(paint("31", "Cancelled."));
    process.exit(signal === "SIGTERM" ? 128 + 15 : EXIT.cancelled);
  };
  out.write(HIDE_CURSOR);
  draw();
  const timer = setInterval(draw, SPINNER_INTERVAL_MS);
  (timer as { unref?: () => void }).unref?.();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    update(next) {
      if (next === text) return;
      text = next;
      draw();
    },
    stop: (message) =>
      end(message === undefined ? undefined : `${paint("32", "✔")} ${sanitizeTerminal(message)}`),
    fail: (message) =>
      end(message === undefined ? undefined : `${paint("31", "✖")} ${sanitizeTerminal(message)}`),
  };
}
