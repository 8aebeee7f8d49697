/** Response bodies read with a size cap: a hostile or broken server cannot fill memory. */

/** The largest response body read (a hostile or broken server could otherwise fill memory). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A body over MAX_RESPONSE_BYTES: reading stopped at the cap. */
export class BodyTooLarge extends Error {}

/** Reads a body as text, stopping at MAX_RESPONSE_BYTES (declared or actual size). */
export async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge();
  }
  if (!res.body) return "";
  // A declared, uncompressed length within the cap is read natively (the transfer cannot exceed
  // it); a compressed or undeclared body is counted while streaming, as it may grow without bound.
  const encoding = res.headers.get("content-encoding")?.trim().toLowerCase();
  if (
    Number.isFinite(declared) &&
    res.headers.has("content-length") &&
    (!encoding || encoding === "identity")
  ) {
    return res.text();
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}
