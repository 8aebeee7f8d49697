/**
 * The one sanitiser of terminal output. Text from the service (titles, culprits, tag values,
 * span descriptions, log messages, error details, device-flow URLs, analysis steps) must not
 * drive or disguise the terminal:
 * - ESC/CSI/OSC sequences, BEL, backspace, carriage return, DEL and C1 controls are shown visibly
 *   (`\e`, `\x07`, `\x9b`); newlines and tabs stay;
 * - bidi overrides and isolates, zero-width characters, U+2028/U+2029 and the BOM, which reorder
 *   or hide text, are shown as `\u202e` and the like;
 * - colour: only tracker's own SGR codes pass (marked by lib/style.ts, on a colour terminal;
 *   dropped elsewhere). An SGR code from server data is shown visibly like any other escape.
 *   A write that coloured anything ends with a reset, so an interrupted run leaves no colour on.
 * JSON output is unaffected: JSON.stringify escapes control characters, output.ts the rest.
 */
import { STYLE_MARK } from "./style.ts";

/** Characters that reorder or hide text: bidi controls, zero-width ones, line/paragraph separators, BOM. */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const SUSPECT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const OWN_SGR = /^\x1b\[[0-9;]{0,40}m/;

/** Renders one control or invisible character visibly. */
function visible(code: number): string {
  if (code === 0x1b) return "\\e";
  if (code > 0xff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f);
}

/** The text made safe for a terminal; tracker's own colour codes kept when `color`. */
export function sanitizeTerminal(text: string, color = false): string {
  return sanitizeWrite(text, color).text;
}

/** sanitizeTerminal, also saying whether any colour code was let through. */
function sanitizeWrite(text: string, color: boolean): { text: string; styled: boolean } {
  // Fast path: the overwhelming majority of output has nothing to change.
  if (!SUSPECT.test(text) && !text.includes(STYLE_MARK)) return { text, styled: false };
  const parts: string[] = [];
  let styled = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith(STYLE_MARK, i)) {
      const m = OWN_SGR.exec(text.slice(i + STYLE_MARK.length, i + STYLE_MARK.length + 44));
      if (m) {
        parts.push(text.slice(from, i));
        if (color) {
          parts.push(m[0]);
          styled = true;
        }
        i += STYLE_MARK.length + m[0].length - 1;
        from = i + 1;
        continue;
      }
    }
    const code = text.charCodeAt(i);
    if (isControl(code) || (code > 0xff && INVISIBLE.test(text[i] as string))) {
      parts.push(text.slice(from, i), visible(code));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return { text: parts.join(""), styled };
}

/**
 * `text` with each of the run's own secrets (its tokens, as the HTTP layer registers them) replaced
 * by `[REDACTED]`: a server that echoes the token in a title, an error or a header never gets it
 * printed, in human output or JSON (a token has no character JSON escapes).
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8 && out.includes(s)) out = out.split(s).join("[REDACTED]");
  return out;
}

/** A sink whose every write passes through the sanitiser, with the run's secrets (read at each write) masked. */
export function sanitizingSink(
  sink: { write(text: string): void },
  color: boolean,
  secrets: readonly string[] = [],
): { write(text: string): void } {
  return {
    write: (text) => {
      const safe = sanitizeWrite(withoutSecrets(text, secrets), color);
      sink.write(safe.styled ? `${safe.text}\x1b[0m` : safe.text);
    },
  };
}
