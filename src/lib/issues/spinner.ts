/** Progress of a long AI analysis: a spinner with the current step on a TTY stderr, debug logs otherwise. */
import type { TrackerContext } from "../../context.ts";
import { canAnimate } from "../automation.ts";
import { sanitizeTerminal } from "../sanitize.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Spinner frame interval. */
export const SPINNER_INTERVAL_MS = 100;

/** A progress line that can be updated and must be stopped. */
export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** Starts a spinner on stderr when it is a TTY; elsewhere only logs step changes at debug level. */
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
    };
  }
  let frame = 0;
  const draw = () => {
    const glyph = ctx.color
      ? `\x1b[36m${FRAMES[frame % FRAMES.length]}\x1b[39m`
      : FRAMES[frame % FRAMES.length];
    (ctx.terminal ?? ctx.stderr).write(`\r${glyph} ${sanitizeTerminal(text)}\x1b[K`);
    frame++;
  };
  draw();
  const timer = setInterval(draw, SPINNER_INTERVAL_MS);
  (timer as { unref?: () => void }).unref?.();
  return {
    update(next) {
      if (next === text) return;
      text = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      (ctx.terminal ?? ctx.stderr).write("\r\x1b[K");
    },
  };
}
