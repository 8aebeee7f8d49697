/**
 * Fuzz of the object readers: truncations at every header offset and at intervals through each
 * fixture, and seeded bit flips (most in the headers, some anywhere). Every case must end within
 * its deadline with objects, null ("not debug information") or a DifParseError: never another
 * exception (RangeError, TypeError…), never a hang. A failure prints the seed and the case.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { detectDif, memoryWindow } from "../../src/lib/debug-files/detect.ts";
import { Bytes } from "../../src/lib/debug-files/bytes.ts";
import { dwarfSourceFiles } from "../../src/lib/debug-files/dwarf-lines.ts";
import { type DwarfSectionName, readDwarfSections } from "../../src/lib/debug-files/dwarf-sections.ts";
import { DifParseError } from "../../src/lib/debug-files/types.ts";
import { Rng } from "./harness.ts";

/** Fixed, so every run is the same; FUZZ_SEED explores others (a failure names its seed). */
const SEED = Number(process.env.FUZZ_SEED) || 0xd1f5;
const DIR = join(import.meta.dir, "../fixtures/difs");
const FIXTURES = readdirSync(DIR).filter((f) => !/\.(md|json|py|sh)$/.test(f));
const HEADER_BYTES = 512;
const FLIPS_PER_FIXTURE = 200;
const CASE_DEADLINE_MS = 2000;

/** Truncation points: every offset of the headers, then about 60 more spread over the file. */
function cuts(size: number): number[] {
  const out = new Set<number>();
  for (let i = 0; i < Math.min(size, HEADER_BYTES); i++) out.add(i);
  const step = Math.max(1, Math.floor(size / 60));
  for (let i = HEADER_BYTES; i < size; i += step) out.add(i);
  out.add(size - 1);
  return [...out];
}

/** Flips 1-4 bits, 80% of the time inside the headers. */
function flip(data: Uint8Array, rng: Rng): { bytes: Uint8Array; where: number[] } {
  const bytes = Uint8Array.from(data);
  const where: number[] = [];
  for (let n = 1 + rng.int(4); n > 0; n--) {
    const at = rng.chance(0.8) ? rng.int(Math.min(bytes.length, HEADER_BYTES)) : rng.int(bytes.length);
    bytes[at]! ^= 1 << rng.int(8);
    where.push(at);
  }
  return { bytes, where };
}

async function outcome(bytes: Uint8Array, label: string): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<string>((done) => {
    timer = setTimeout(() => done(`${label}: no answer within ${CASE_DEADLINE_MS} ms`), CASE_DEADLINE_MS);
  });
  const run = detectDif(memoryWindow(bytes), "fuzz").then(
    (objects) => (objects === null || objects.length > 0 ? null : `${label}: an empty object list`),
    (e) => (e instanceof DifParseError ? null : `${label}: ${e?.name}: ${e?.message}`),
  );
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

test(`readers survive truncations and bit flips of every fixture (seed ${SEED})`, async () => {
  const rng = new Rng(SEED);
  const failures: string[] = [];
  let cases = 0;
  for (const name of FIXTURES) {
    const data = new Uint8Array(readFileSync(join(DIR, name)));
    for (const at of cuts(data.length)) {
      cases++;
      const bad = await outcome(data.subarray(0, at), `${name} cut at ${at}`);
      if (bad) failures.push(bad);
    }
    for (let i = 0; i < FLIPS_PER_FIXTURE; i++) {
      cases++;
      const { bytes, where } = flip(data, rng);
      const bad = await outcome(bytes, `${name} flipped at ${where.join(",")}`);
      if (bad) failures.push(bad);
    }
  }
  if (failures.length > 0) console.log(`FUZZ_SEED=${SEED}\n${failures.slice(0, 20).join("\n")}`);
  expect(failures).toEqual([]);
  expect(cases).toBeGreaterThan(3000);
}, 120_000);

/** The fixtures with DWARF line tables (plain, SHF_COMPRESSED, .zdebug_*, Mach-O dSYM, relocatable). */
const DWARF_FIXTURES = [
  "elf-debug",
  "elf-debug.debug",
  "libz.so",
  "libzgnu.so",
  "macho-x86_64.dsym",
  "elf-rel.o",
];

test(`the DWARF line-table reader survives truncations and bit flips of every DWARF section (seed ${SEED})`, async () => {
  const rng = new Rng(SEED ^ 0x5eed);
  const failures: string[] = [];
  let cases = 0;
  const check = (label: string, run: () => unknown) => {
    cases++;
    const started = performance.now();
    try {
      run();
    } catch (e) {
      if (!(e instanceof DifParseError))
        failures.push(`${label}: ${(e as Error)?.name}: ${(e as Error)?.message}`);
    }
    if (performance.now() - started > CASE_DEADLINE_MS)
      failures.push(`${label}: took over ${CASE_DEADLINE_MS} ms`);
  };
  const whole = async (label: string, bytes: Uint8Array) => {
    cases++;
    const w = memoryWindow(bytes);
    const run = (async () => {
      for (const o of (await detectDif(w, "fuzz")) ?? []) {
        const d = await readDwarfSections(w, o);
        if (d) dwarfSourceFiles(d);
      }
    })();
    const bad = await run.then(
      () => null,
      (e) => (e instanceof DifParseError ? null : `${label}: ${e?.name}: ${e?.message}`),
    );
    if (bad) failures.push(bad);
  };
  for (const name of DWARF_FIXTURES) {
    const file = new Uint8Array(readFileSync(join(DIR, name)));
    for (const at of cuts(file.length)) await whole(`${name} cut at ${at}`, file.subarray(0, at));
    for (let i = 0; i < FLIPS_PER_FIXTURE; i++) {
      const { bytes, where } = flip(file, rng);
      await whole(`${name} flipped at ${where.join(",")}`, bytes);
    }
    const window = memoryWindow(file);
    const [object] = (await detectDif(window, name)) ?? [];
    const sections = object && (await readDwarfSections(window, object));
    if (!sections?.data.line) throw new Error(`${name}: no DWARF line table to fuzz`);
    for (const key of Object.keys(sections.data) as DwarfSectionName[]) {
      const original = sections.data[key] as Bytes;
      const withSection = (data: Uint8Array) => ({
        ...sections,
        data: { ...sections.data, [key]: new Bytes(data, sections.format, sections.littleEndian) },
      });
      for (const at of cuts(original.length))
        check(`${name} .debug_${key} cut at ${at}`, () =>
          dwarfSourceFiles(withSection(original.data.subarray(0, at))),
        );
      for (let i = 0; i < FLIPS_PER_FIXTURE; i++) {
        const { bytes, where } = flip(original.data, rng);
        check(`${name} .debug_${key} flipped at ${where.join(",")}`, () =>
          dwarfSourceFiles(withSection(bytes)),
        );
      }
    }
  }
  if (failures.length > 0) console.log(`FUZZ_SEED=${SEED}\n${failures.slice(0, 20).join("\n")}`);
  expect(failures).toEqual([]);
  expect(cases).toBeGreaterThan(3000);
}, 120_000);
