/**
 * The one parser of Sentry's 32-hex identifiers (event, trace, log and replay IDs): upper case is
 * accepted, and so is the dashed UUID form (8-4-4-4-12); anything else is not an ID.
 */
import { ValidationError } from "./errors.ts";

const UUID_FORM = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The 32 lower-case hex characters of an ID as typed, or undefined when it is not one. */
export function compactHexId(raw: string): string | undefined {
  const text = raw.trim();
  const compact = (UUID_FORM.test(text) ? text.replace(/-/g, "") : text).toLowerCase();
  return /^[0-9a-f]{32}$/.test(compact) ? compact : undefined;
}

/** A 32-hex ID of the given kind (`event`, `trace`, `log`, `replay`), or a ValidationError naming the form. */
export function parseHexId(raw: string, kind: string, field: string, hint = ""): string {
  const id = compactHexId(raw);
  if (id === undefined) {
    throw new ValidationError(
      `Invalid ${kind} ID '${raw.trim()}': expected 32 hexadecimal characters (dashes of the UUID form allowed)${hint}.`,
      field,
    );
  }
  return id;
}
