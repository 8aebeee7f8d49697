/**
 * WebAssembly reader, after symbolic-debuginfo's wasm.rs: the `build_id` custom section's payload
 * as stored (wasm-ld's length byte included, as sentry-cli and the service read it) gives the code
 * id and, first 16 bytes, the debug id; `.debug_*` custom sections are DWARF. Walks the section
 * headers through a small buffer; section bodies are skipped, not read.
 */
import { formatUuid, isNil, MAX_READ_BYTES, readExact, startsWith, toHex } from "./bytes.ts";
import { type DifFeature, type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

const MAX_SECTIONS = 100_000;
const HEADER_WINDOW = 64;

/** Reads an unsigned LEB128 (at most 5 bytes, u32) at `pos` of `data`; returns [value, bytes]. */
function leb(data: Uint8Array, pos: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = data[pos + i];
    if (byte === undefined) throw new DifParseError("wasm", `truncated LEB128 at byte ${pos}`);
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  throw new DifParseError("wasm", `LEB128 too long at byte ${pos}`);
}

async function readWasm(file: FileWindow): Promise<DifObject[]> {
  const header = await readExact(file, 0, 8, "wasm", "wasm header");
  if (header.u32(4) !== 1) throw new DifParseError("wasm", `unsupported wasm version ${header.u32(4)}`);
  let pos = 8;
  let buildId: Uint8Array | undefined;
  let hasFunctions = false;
  const dwarf = new Set<string>();
  for (let n = 0; pos < file.size; n++) {
    if (n > MAX_SECTIONS) throw new DifParseError("wasm", "too many sections");
    const head = await file.read(pos, Math.min(HEADER_WINDOW, file.size - pos));
    const id = head[0]!;
    const [size, sizeLen] = leb(head, 1);
    const bodyAt = pos + 1 + sizeLen;
    if (bodyAt + size > file.size)
      throw new DifParseError("wasm", `section at byte ${pos} ends past the end of the file`);
    if (id === 3) {
      const body = await file.read(bodyAt, Math.min(5, size));
      hasFunctions = leb(body, 0)[0] > 0;
    } else if (id === 0) {
      const pre = await file.read(bodyAt, Math.min(5, size));
      const [nameLen, nameLenLen] = leb(pre, 0);
      if (nameLenLen + nameLen > size)
        throw new DifParseError("wasm", `custom section name at byte ${pos} overflows`);
      const nameBytes = await readExact(
        file,
        bodyAt + nameLenLen,
        Math.min(nameLen, 256),
        "wasm",
        "section name",
      );
      const name = new TextDecoder().decode(nameBytes.data);
      const payloadAt = bodyAt + nameLenLen + nameLen;
      const payloadSize = size - nameLenLen - nameLen;
      if (name === "build_id" && !buildId) {
        if (payloadSize > MAX_READ_BYTES) throw new DifParseError("wasm", "build_id section too large");
        buildId = (await readExact(file, payloadAt, payloadSize, "wasm", "build_id")).data;
      } else if (name.startsWith(".debug_")) {
        dwarf.add(name);
      }
    } else if (id > 13) {
      throw new DifParseError("wasm", `unknown section id ${id} at byte ${pos}`);
    }
    pos = bodyAt + size;
  }
  const features: DifFeature[] = ["symtab"];
  if (dwarf.has(".debug_info")) features.push("debug");
  if (dwarf.has(".debug_frame")) features.push("unwind");
  const first16 = buildId && buildId.length >= 16 ? buildId.subarray(0, 16) : undefined;
  return [
    {
      format: "wasm",
      kind: hasFunctions ? "lib" : "dbg",
      arch: "wasm32",
      debugId: first16 && !isNil(first16) ? formatUuid(first16) : null,
      codeId: buildId && buildId.length > 0 ? toHex(buildId) : null,
      features,
      offset: 0,
      size: file.size,
    },
  ];
}

/** The WebAssembly reader. */
export const wasmReader: DifReader = {
  format: "wasm",
  sniff: (head) => startsWith(head, "\0asm"),
  read: (file) => readWasm(file),
};
