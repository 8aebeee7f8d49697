/**
 * The text edits of `sourcemap inject` (API.md §20.1), pure so they can be tested with golden
 * files: the snippet as a new first line (after a `#!` line; a leading directive is repeated in
 * front of it), `//# debugId=<id>` appended, and the map's `debug_id`/`debugId` set with its
 * line mappings moved down one line to match.
 */
import { debugIdFromBytes, debugIdSnippet, jsDebugId, mapDebugId } from "./debug-id.ts";

/** What inject does to one JS file and its map. */
export interface InjectResult {
  debugId: string;
  /** New JS text, or undefined when the file already carries the id. */
  js?: string;
  /** New map text, or undefined when the map already carries the id. */
  map?: string;
}

/** A map that cannot be used: not JSON, or not a source map. */
export class BadSourceMap extends Error {}

const DIRECTIVE_RE = /^\s*(["'])use (strict|client|server)\1;?/;

/** Parses a source map's text; throws BadSourceMap when it is not one. */
export function parseSourceMap(text: string): Record<string, unknown> {
  let map: unknown;
  try {
    map = JSON.parse(text.replace(/^\)\]\}'[^\n]*\n/, ""));
  } catch (err) {
    throw new BadSourceMap(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof map !== "object" || map === null || Array.isArray(map))
    throw new BadSourceMap("not a JSON object");
  const m = map as Record<string, unknown>;
  if (typeof m.mappings !== "string" && !Array.isArray(m.sections))
    throw new BadSourceMap("neither `mappings` nor `sections`");
  return m;
}

/** Moves every mapping at or below generated line `at` (0-based) down by one line. */
function shiftMap(map: Record<string, unknown>, at: number): void {
  if (typeof map.mappings === "string") {
    const lines = map.mappings.split(";");
    if (at <= lines.length) lines.splice(at, 0, "");
    map.mappings = lines.join(";");
  }
  if (Array.isArray(map.sections)) {
    for (const s of map.sections as { offset?: { line?: number } }[]) {
      if (s.offset && typeof s.offset.line === "number" && s.offset.line >= at) s.offset.line += 1;
    }
  }
}

/** The JS text with the snippet and the comment added (`text` must not carry an id yet). */
export function injectJs(text: string, id: string): { js: string; insertedAt: number } {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  let head = "";
  let body = text;
  if (text.startsWith("#!")) {
    const end = text.indexOf("\n");
    head = end < 0 ? `${text}${nl}` : text.slice(0, end + 1);
    body = end < 0 ? "" : text.slice(end + 1);
  }
  const directive = DIRECTIVE_RE.exec(body);
  const prefix = directive ? `"use ${directive[2]}";` : "";
  const line = `${prefix}${debugIdSnippet(id)}${nl}`;
  const tail = body.length === 0 || body.endsWith("\n") ? "" : nl;
  return { js: `${head}${line}${body}${tail}//# debugId=${id}${nl}`, insertedAt: head ? 1 : 0 };
}

/**
 * Injects one file. The id is kept when the JS or the map already has one, else derived from the
 * map's bytes. Idempotent: a second run returns neither `js` nor `map`.
 */
export function injectPair(jsText: string, mapText: string): InjectResult {
  const map = parseSourceMap(mapText);
  const inJs = jsDebugId(jsText);
  const debugId = inJs ?? mapDebugId(map) ?? debugIdFromBytes(mapText);
  const out: InjectResult = { debugId };
  if (!inJs) {
    const { js, insertedAt } = injectJs(jsText, debugId);
    out.js = js;
    shiftMap(map, insertedAt);
  }
  if (out.js !== undefined || map.debug_id !== debugId || map.debugId !== debugId) {
    map.debug_id = debugId;
    map.debugId = debugId;
    out.map = JSON.stringify(map);
  }
  return out;
}
