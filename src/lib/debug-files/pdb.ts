/**
 * PDB (MSF 7.0) reader, after symbolic-debuginfo's pdb/mod.rs: the GUID of the PDB info stream
 * (stream 1) with the age of the DBI stream (stream 3; the info stream's age when there is none),
 * the architecture from the DBI header. Reads the superblock, the stream directory and the first
 * block of the two streams; symtab and debug are always claimed, unwind for 32-bit x86 (as symbolic).
 */
import { Bytes, guidAgeDebugId, readExact, startsWith } from "./bytes.ts";
import { machineArch } from "./pe.ts";
import { type DifFeature, type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

const MSF7_MAGIC = "Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0";
const NIL_STREAM = 0xffff_ffff;
const MAX_STREAMS = 1_000_000;

interface Msf {
  blockSize: number;
  /** For each stream: its size (NIL_STREAM for none) and the file blocks holding it. */
  streams: Array<{ size: number; blocks: number[] }>;
}

async function readDirectory(file: FileWindow): Promise<Msf> {
  const sb = await readExact(file, 0, 56, "pdb", "MSF superblock");
  const blockSize = sb.u32(32);
  if (![512, 1024, 2048, 4096, 8192, 16384, 32768].includes(blockSize)) {
    throw new DifParseError("pdb", `bad MSF block size ${blockSize}`);
  }
  const dirBytes = sb.u32(44);
  if (dirBytes < 4 || dirBytes > file.size)
    throw new DifParseError("pdb", `bad stream directory size ${dirBytes}`);
  const mapBlock = sb.u32(52);
  const dirBlockCount = Math.ceil(dirBytes / blockSize);
  const map = await readExact(file, mapBlock * blockSize, dirBlockCount * 4, "pdb", "stream directory map");
  const parts: Uint8Array[] = [];
  for (let i = 0; i < dirBlockCount; i++) {
    const block = map.u32(i * 4);
    const len = Math.min(blockSize, dirBytes - i * blockSize);
    parts.push((await readExact(file, block * blockSize, len, "pdb", "stream directory")).data);
  }
  const dirData = new Uint8Array(dirBytes);
  let at = 0;
  for (const p of parts) {
    dirData.set(p, at);
    at += p.length;
  }
  const dir = new Bytes(dirData, "pdb");
  const count = dir.u32(0, "stream count");
  if (count > MAX_STREAMS || 4 + count * 4 > dirBytes)
    throw new DifParseError("pdb", `implausible stream count ${count}`);
  const streams: Msf["streams"] = [];
  let pos = 4 + count * 4;
  for (let i = 0; i < count; i++) {
    const size = dir.u32(4 + i * 4);
    const n = size === NIL_STREAM ? 0 : Math.ceil(size / blockSize);
    if (pos + n * 4 > dirBytes) throw new DifParseError("pdb", "stream directory truncated");
    const blocks: number[] = [];
    // Only the first two blocks of a stream are ever read here.
    for (let b = 0; b < Math.min(n, 2); b++) blocks.push(dir.u32(pos + b * 4));
    pos += n * 4;
    streams.push({ size, blocks });
  }
  return { blockSize, streams };
}

/** The first `length` bytes of a stream, or undefined when the stream is absent or shorter. */
async function streamHead(
  file: FileWindow,
  msf: Msf,
  index: number,
  length: number,
): Promise<Bytes | undefined> {
  const stream = msf.streams[index];
  if (!stream || stream.size === NIL_STREAM || stream.size < length) return undefined;
  if (length > msf.blockSize * stream.blocks.length)
    throw new DifParseError("pdb", "stream header spans blocks");
  const out = new Uint8Array(length);
  let at = 0;
  for (const block of stream.blocks) {
    if (at >= length) break;
    const len = Math.min(msf.blockSize, length - at);
    out.set((await readExact(file, block * msf.blockSize, len, "pdb", `stream ${index}`)).data, at);
    at += len;
  }
  return new Bytes(out, "pdb");
}

async function readPdb(file: FileWindow): Promise<DifObject[]> {
  const msf = await readDirectory(file);
  const info = await streamHead(file, msf, 1, 28);
  if (!info) throw new DifParseError("pdb", "missing PDB info stream");
  const dbi = await streamHead(file, msf, 3, 64);
  const age = dbi ? dbi.u32(8) : info.u32(8);
  const arch = dbi ? machineArch(dbi.u16(58)) : "unknown";
  const features: DifFeature[] = ["symtab", "debug"];
  if (arch === "x86") features.push("unwind");
  return [
    {
      format: "pdb",
      kind: "dbg",
      arch,
      debugId: guidAgeDebugId(info.slice(12, 16), age),
      codeId: null,
      features,
      offset: 0,
      size: file.size,
    },
  ];
}

/** The PDB reader (MSF 7.0 program databases). */
export const pdbReader: DifReader = {
  format: "pdb",
  sniff: (head) => startsWith(head, MSF7_MAGIC),
  read: (file) => readPdb(file),
};
