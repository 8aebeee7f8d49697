/**
 * Source bundle detection, after symbolic-debuginfo's sourcebundle/mod.rs: an 8-byte `SYSB` header
 * (u32 LE version) before a zip whose `manifest.json` carries the object's `debug_id`, `code_id`
 * and `arch`. Reads the zip's central directory and that one entry (at most MAX_MANIFEST_BYTES
 * inflated); the zip's offsets count the header, but relative ones are accepted too.
 */
import { inflateRawSync } from "node:zlib";
import { formatUuid, readExact, startsWith } from "./bytes.ts";
import { type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

const HEADER_BYTES = 8;
const EOCD_MIN = 22;
const EOCD_SEARCH = EOCD_MIN + 65_535;
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
const MANIFEST = "manifest.json";

/** Sentry's debug id forms (`8-4-4-4-12[-age]`, or 32+ hex digits) in the canonical form; null otherwise. */
export function normalizeDebugId(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const hex = raw.trim().toLowerCase().replace(/-/g, "");
  const m = /^([0-9a-f]{32})([0-9a-f]{1,8})?$/.exec(hex);
  if (!m) return null;
  const uuid = formatUuid(Uint8Array.from(m[1]!.match(/../g)!.map((b) => Number.parseInt(b, 16))));
  const age = m[2] ? Number.parseInt(m[2], 16) : 0;
  if (uuid === "00000000-0000-0000-0000-000000000000" && age === 0) return null;
  return age === 0 ? uuid : `${uuid}-${age.toString(16)}`;
}

async function findManifest(file: FileWindow): Promise<Uint8Array> {
  const tailLen = Math.min(file.size - HEADER_BYTES, EOCD_SEARCH);
  const tailAt = file.size - tailLen;
  const tail = await readExact(file, tailAt, tailLen, "sourcebundle", "zip end");
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (startsWith(tail.data, "PK\x05\x06", i)) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new DifParseError("sourcebundle", "no zip end of central directory");
  const entries = tail.u16(eocd + 10);
  const cdSize = tail.u32(eocd + 12);
  const cdOffset = tail.u32(eocd + 16);
  // Writers of SYSB bundles use absolute offsets; a zip simply appended to the header would not.
  const shift = tailAt + eocd === cdOffset + cdSize ? 0 : HEADER_BYTES;
  const cd = await readExact(file, cdOffset + shift, cdSize, "sourcebundle", "zip central directory");
  let pos = 0;
  for (let i = 0; i < entries; i++) {
    if (!startsWith(cd.data, "PK\x01\x02", pos))
      throw new DifParseError("sourcebundle", "corrupt zip central directory");
    const method = cd.u16(pos + 10);
    const compressed = cd.u32(pos + 20);
    const size = cd.u32(pos + 24);
    const nameLen = cd.u16(pos + 28);
    const extraLen = cd.u16(pos + 30);
    const commentLen = cd.u16(pos + 32);
    const local = cd.u32(pos + 42);
    const name = new TextDecoder().decode(cd.slice(pos + 46, nameLen));
    pos += 46 + nameLen + extraLen + commentLen;
    if (name !== MANIFEST) continue;
    if (size > MAX_MANIFEST_BYTES || compressed > MAX_MANIFEST_BYTES) {
      throw new DifParseError("sourcebundle", "manifest.json is too large");
    }
    const lh = await readExact(file, local + shift, 30, "sourcebundle", "zip local header");
    if (!startsWith(lh.data, "PK\x03\x04"))
      throw new DifParseError("sourcebundle", "corrupt zip local header");
    const dataAt = local + shift + 30 + lh.u16(26) + lh.u16(28);
    const raw = (await readExact(file, dataAt, compressed, "sourcebundle", MANIFEST)).data;
    if (method === 0) return raw;
    if (method !== 8) throw new DifParseError("sourcebundle", `manifest.json uses zip method ${method}`);
    try {
      return inflateRawSync(raw, { maxOutputLength: MAX_MANIFEST_BYTES });
    } catch {
      throw new DifParseError("sourcebundle", "manifest.json does not inflate");
    }
  }
  throw new DifParseError("sourcebundle", "no manifest.json in the bundle");
}

async function readBundle(file: FileWindow): Promise<DifObject[]> {
  const text = new TextDecoder().decode(await findManifest(file));
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new DifParseError("sourcebundle", "manifest.json is not JSON");
  }
  if (!manifest || typeof manifest !== "object" || Array.isArray(manifest)) {
    throw new DifParseError("sourcebundle", "manifest.json is not an object");
  }
  const attrs = manifest as Record<string, unknown>;
  const codeId =
    typeof attrs.code_id === "string" && /^[0-9a-f]+$/i.test(attrs.code_id) ? attrs.code_id : null;
  return [
    {
      format: "sourcebundle",
      kind: "sources",
      arch: typeof attrs.arch === "string" && /^[a-z0-9_]+$/.test(attrs.arch) ? attrs.arch : "unknown",
      debugId: normalizeDebugId(attrs.debug_id),
      codeId: codeId?.toLowerCase() ?? null,
      features: ["sources"],
      offset: 0,
      size: file.size,
    },
  ];
}

/** The source bundle reader (detection and ids only). */
export const sourceBundleReader: DifReader = {
  format: "sourcebundle",
  sniff: (head) => startsWith(head, "SYSB"),
  read: (file) => readBundle(file),
};
