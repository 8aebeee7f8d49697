/** The pure parsers of `tracker query`'s flags (the spec imports them; no API code). */
import { ValidationError } from "../errors.ts";
import { parseDuration } from "../time-window.ts";

/** Parses `--interval` (the one duration grammar, time-window.ts) to whole seconds. */
export function parseInterval(raw: string): number {
  return parseDuration(raw, "interval").ms / 1000;
}

/** Parses one `-F` value: a field or an aggregate as the service names it. */
export function parseField(raw: string): string {
  const text = raw.trim();
  if (text === "" || /[\r\n]/.test(text)) {
    throw new ValidationError(`--field must be a field or aggregate such as count(), got '${raw}'.`, "field");
  }
  return text;
}
