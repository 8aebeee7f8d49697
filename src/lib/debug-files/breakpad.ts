/**
 * Breakpad `.sym` files (API.md §21.6): the `MODULE <os> <arch> <id> <name>` line gives the debug
 * ID (32 hex digits = the UUID, the rest = the age), `INFO CODE_ID <hex>` the code ID. Features
 * come from the record kinds, which Breakpad writes in a fixed order (FILE, FUNC with its line
 * records, PUBLIC, STACK): the head and the tail of the file decide them, so a 1 GB file costs
 * two small reads.
 */
import { type DifFeature, type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

/** Bytes read from each end of the file to find the record kinds. */
const PROBE_BYTES = 64 * 1024;

/** The debug ID of a Breakpad module id: UUID from the first 32 hex digits, age (hex) appended unless 0. */
export function breakpadDebugId(raw: string): string | null {
  if (!/^[0-9a-fA-F]{32,40}$/.test(raw)) return null;
  const hex = raw.slice(0, 32).toLowerCase();
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (/^0+$/.test(hex) && /^0*$/.test(raw.slice(32))) return null;
  const age = raw.length > 32 ? Number.parseInt(raw.slice(32), 16) : 0;
  return age === 0 ? uuid : `${uuid}-${age.toString(16)}`;
}

/** symbolic's names for Breakpad's architecture words. */
function archOf(word: string): string {
  const w = word.toLowerCase();
  if (w === "amd64" || w === "x86_64") return "x86_64";
  if (w === "i386" || w === "x86") return "x86";
  if (w === "aarch64") return "arm64";
  return w;
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** Record kinds seen in a piece of the file (a line cut at either end is ignored). */
function recordKinds(text: string, kinds: Set<string>): void {
  for (const line of text.split("\n")) {
    const word = /^([A-Z_]+) /.exec(line)?.[1];
    if (word) kinds.add(word);
    else if (/^[0-9a-f]+ [0-9a-f]+ \d+ \d+/.test(line)) kinds.add("LINE");
  }
}

/** The Breakpad reader. */
export const breakpadReader: DifReader = {
  format: "breakpad",
  sniff: (head) => decoder.decode(head.subarray(0, 7)) === "MODULE ",
  async read(file: FileWindow, name: string): Promise<DifObject[]> {
    const head = decoder.decode(await file.read(0, Math.min(file.size, PROBE_BYTES)));
    const nl = head.indexOf("\n");
    const first = (nl < 0 ? head : head.slice(0, nl)).replace(/\r$/, "");
    const m = /^MODULE (\S+) (\S+) (\S+)(?: (.*))?$/.exec(first);
    if (!m) throw new DifParseError("breakpad", `${name}: the first line is not a Breakpad MODULE record`);
    const debugId = breakpadDebugId(m[3] as string);
    if (debugId === null)
      throw new DifParseError("breakpad", `${name}: the MODULE record has no valid debug identifier`);
    const kinds = new Set<string>();
    recordKinds(head.slice(nl + 1, head.lastIndexOf("\n") + 1), kinds);
    if (file.size > PROBE_BYTES) {
      const tailAt = Math.max(PROBE_BYTES, file.size - PROBE_BYTES);
      const tail = decoder.decode(await file.read(tailAt, file.size - tailAt));
      recordKinds(tail.slice(tail.indexOf("\n") + 1), kinds);
    }
    const codeId = /^INFO CODE_ID ([0-9A-Fa-f]+)/m.exec(head)?.[1]?.toLowerCase() ?? null;
    const features: DifFeature[] = [];
    if (kinds.has("FUNC") || kinds.has("PUBLIC")) features.push("symtab");
    if (kinds.has("FILE") || kinds.has("LINE")) features.push("debug");
    if (kinds.has("STACK")) features.push("unwind");
    return [
      {
        format: "breakpad",
        kind: "dbg",
        arch: archOf(m[2] as string),
        debugId,
        codeId,
        features,
        offset: 0,
        size: file.size,
      },
    ];
  },
};
