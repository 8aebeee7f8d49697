/**
 * The text edits of `sourcemap inject` (API.md §20.1), pure so they can be tested with golden
 * files: the snippet as a new line at the top (after a `#!` line, and after a directive prologue
 * — `"use strict"` with any comments or licence banner before it — that ends its line; one that
 * shares its line with code is repeated in front of the snippet instead, so strict mode stays in
 * force either way), `//# debugId=<id>` appended, and the map's `debug_id`/`debugId` set with its
 * line mappings moved down one line to match.
 */
import { debugIdFromBytes, debugIdSnippet, jsDebugId, mapDebugId } from "./debug-id.ts";
import { directivePrologue } from "./prologue.ts";
import { jsonTextDepth } from "../json-deep.ts";

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

/** Deepest nesting of arrays and objects accepted in a source map (real ones nest 3 or 4 deep). */
export const MAX_MAP_DEPTH = 1000;

/** How deeply `text`'s arrays and objects nest, counted without recursion; stops past `cap`. */
const jsonDepth = (text: string, cap: number): number => jsonTextDepth(text, cap);

/** Parses a source map's text; throws BadSourceMap when it is not one (or nests deeper than MAX_MAP_DEPTH). */
export function parseSourceMap(text: string): Record<string, unknown> {
  let map: unknown;
  const body = text.replace(/^\)\]\}'[^\n]*\n/, "");
  if (jsonDepth(body, MAX_MAP_DEPTH) > MAX_MAP_DEPTH)
    throw new BadSourceMap(`nested more than ${MAX_MAP_DEPTH} levels deep (not a source map)`);
  try {
    map = JSON.parse(body);
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
  const withEnd = (main: string) =>
    `${main}${main === "" || main.endsWith("\n") ? "" : nl}//# debugId=${id}${nl}`;
  const prologue = directivePrologue(body);
  if (prologue.lineEnd !== undefined) {
    // The prologue ends its line: the snippet goes on a new line right after it.
    const before = body.slice(0, prologue.lineEnd);
    const sep = before.endsWith("\n") ? "" : nl;
    const lines = (before.match(/\n/g) ?? []).length + (sep ? 1 : 0);
    const js = withEnd(`${head}${before}${sep}${debugIdSnippet(id)}${nl}${body.slice(prologue.lineEnd)}`);
    return { js, insertedAt: (head ? 1 : 0) + lines };
  }
  const prefix = prologue.directives.map((d) => `${d};`).join("");
  return { js: withEnd(`${head}${prefix}${debugIdSnippet(id)}${nl}${body}`), insertedAt: head ? 1 : 0 };
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
