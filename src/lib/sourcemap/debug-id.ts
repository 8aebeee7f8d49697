/**
 * Debug IDs (API.md §20.1): one UUID shared by a minified file and its source map, derived from
 * the map's bytes so the same build gives the same id. The runtime snippet stores the id under the
 * file's own stack trace in `globalThis._sentryDebugIds`, where the SDKs look it up.
 */

/** A debug ID as written in files: lowercase, hyphenated. */
export const DEBUG_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The comment line `inject` appends to a JS file (the last one in a file wins). */
const DEBUG_ID_COMMENT_RE = /^\/\/# debugId=([0-9a-fA-F-]{36})\s*$/gm;

/**
 * The debug ID of some bytes (the source map, or the JS file when it has no map): the first 16
 * bytes of their SHA-1 with the version-5 and RFC 4122 variant bits set, as legacy sentry-cli
 * derives it (`uuid::Builder::from_sha1_bytes`). Same bytes, same id.
 */
export function debugIdFromBytes(bytes: Uint8Array | string): string {
  const hasher = new Bun.CryptoHasher("sha1");
  hasher.update(bytes);
  const b = hasher.digest().subarray(0, 16);
  b[6] = ((b[6] as number) & 0x0f) | 0x50;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Normalises an id from a file (case, braces) or returns undefined when it is no UUID. */
export function normaliseDebugId(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const id = raw
    .trim()
    .toLowerCase()
    .replace(/^\{|\}$/g, "");
  return DEBUG_ID_RE.test(id) ? id : undefined;
}

/** The id of a JS file's `//# debugId=` comment, if it has one. */
export function jsDebugId(text: string): string | undefined {
  let found: string | undefined;
  for (const m of text.matchAll(DEBUG_ID_COMMENT_RE)) found = normaliseDebugId(m[1]) ?? found;
  return found;
}

/** The id a parsed source map carries (`debug_id`, or `debugId` as legacy sentry-cli writes it). */
export function mapDebugId(map: Record<string, unknown>): string | undefined {
  return normaliseDebugId(map.debug_id) ?? normaliseDebugId(map.debugId);
}

/**
 * The one-line runtime snippet: stores `id` under this file's stack trace (so an SDK can tell
 * which file a frame came from) and never throws, whatever the environment.
 */
export function debugIdSnippet(id: string): string {
  return (
    `;(function(){try{var g=typeof globalThis!=="undefined"?globalThis:typeof window!=="undefined"?window:` +
    `typeof self!=="undefined"?self:typeof global!=="undefined"?global:{},s=new g.Error().stack;` +
    `if(s){g._sentryDebugIds=g._sentryDebugIds||{};g._sentryDebugIds[s]="${id}";` +
    `g._sentryDebugIdIdentifier="sentry-dbid-${id}"}}catch(e){}})();`
  );
}

/** The `//# sourceMappingURL=` value of a JS file (the last one), if any. */
export function sourceMappingUrl(text: string): string | undefined {
  let found: string | undefined;
  for (const m of text.matchAll(/^\/\/[#@] sourceMappingURL=(\S+)\s*$/gm)) found = m[1];
  return found;
}
