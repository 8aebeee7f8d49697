/**
 * Portable PDB reader, after symbolic-ppdb: the ECMA-335 metadata root (`BSJB`), the `#Pdb` stream's
 * 20-byte PDB id (GUID + u32 stamp as the age) as debug id, and `debug` when the `#~` stream lists
 * MethodDebugInformation rows. Embedded sources and Source Link (symbolic's `sources`) are not read.
 */
import { guidAgeDebugId, readExact, startsWith } from "./bytes.ts";
import { type DifFeature, type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

const MAX_STREAMS = 64;
const METHOD_DEBUG_INFORMATION = 0x31;

async function readPortablePdb(file: FileWindow): Promise<DifObject[]> {
  const root = await readExact(file, 0, Math.min(file.size, 4096), "portablepdb", "metadata root");
  const versionLen = root.u32(12, "version length");
  if (versionLen > 255) throw new DifParseError("portablepdb", `implausible version length ${versionLen}`);
  let pos = 16 + versionLen + 2;
  const count = root.u16(pos, "stream count");
  if (count > MAX_STREAMS) throw new DifParseError("portablepdb", `implausible stream count ${count}`);
  pos += 2;
  const streams = new Map<string, { offset: number; size: number }>();
  for (let i = 0; i < count; i++) {
    const offset = root.u32(pos, "stream header");
    const size = root.u32(pos + 4, "stream header");
    const name = root.cstring(pos + 8, "stream name");
    if (pos + 8 + name.length >= root.length)
      throw new DifParseError("portablepdb", "truncated stream header");
    if (offset + size > file.size)
      throw new DifParseError("portablepdb", `stream ${name} ends past the end of the file`);
    streams.set(name, { offset, size });
    pos += 8 + Math.ceil((name.length + 1) / 4) * 4;
  }
  const pdb = streams.get("#Pdb");
  if (!pdb) throw new DifParseError("portablepdb", "no #Pdb stream");
  if (pdb.size < 20) throw new DifParseError("portablepdb", "#Pdb stream too small");
  const id = await readExact(file, pdb.offset, 20, "portablepdb", "#Pdb stream");
  const features: DifFeature[] = [];
  const tables = streams.get("#~");
  if (tables && tables.size >= 24) {
    const head = await readExact(
      file,
      tables.offset,
      Math.min(tables.size, 24 + 64 * 4),
      "portablepdb",
      "#~ stream",
    );
    const validLo = head.u32(8);
    const validHi = head.u32(12);
    let row = 24;
    for (let t = 0; t < 64; t++) {
      const present = t < 32 ? (validLo >>> t) & 1 : (validHi >>> (t - 32)) & 1;
      if (!present) continue;
      const rows = head.u32(row, "table row count");
      if (t === METHOD_DEBUG_INFORMATION && rows > 0) features.push("debug");
      row += 4;
    }
  }
  return [
    {
      format: "portablepdb",
      kind: "dbg",
      arch: "unknown",
      debugId: guidAgeDebugId(id.slice(0, 16), id.u32(16)),
      codeId: null,
      features,
      offset: 0,
      size: file.size,
    },
  ];
}

/** The Portable PDB reader (.NET). */
export const portablePdbReader: DifReader = {
  format: "portablepdb",
  sniff: (head) => startsWith(head, "BSJB"),
  read: (file) => readPortablePdb(file),
};
