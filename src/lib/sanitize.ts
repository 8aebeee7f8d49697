/**
 * The one sanitiser of terminal output. Text from the service (titles, culprits, tag values,
 * span descriptions, error details, device-flow URLs, analysis steps) must not drive the
 * terminal: ESC/CSI/OSC sequences, BEL, backspace, carriage return, DEL and C1 controls are
 * rendered visibly (`\e`, `\x07`, `\x9b`) instead. Newlines and tabs stay. On a colour terminal
 * plain SGR colour codes (`ESC [ n;n m`) pass, so tracker's own styling survives; nothing else
 * does. JSON output is unaffected: JSON.stringify already escapes every control character.
 */

const SGR_RE = /^\x1b\[[0-9]{0,3}(?:;[0-9]{1,3}){0,8}m/;

/** Renders one control character visibly. */
function visible(code: number): string {
  if (code === 0x1b) return "\\e";
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

/** The text with every control character but newline and tab made visible (SGR kept when `color`). */
export function sanitizeTerminal(text: string, color = false): string {
  // Fast path: the overwhelming majority of output has no control characters at all.
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const control = (code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f);
    if (!control) {
      out += text[i];
      continue;
    }
    if (code === 0x1b && color) {
      const m = SGR_RE.exec(text.slice(i, i + 40));
      if (m) {
        out += m[0];
        i += m[0].length - 1;
        continue;
      }
    }
    out += visible(code);
  }
  return out;
}

/** A sink whose every write passes through the sanitiser. */
export function sanitizingSink(
  sink: { write(text: string): void },
  color: boolean,
): { write(text: string): void } {
  return { write: (text) => sink.write(sanitizeTerminal(text, color)) };
}
