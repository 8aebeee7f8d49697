/**
 * The parts of a native or JVM event `debug-files explain` reads: the frames Symbolicator could not
 * symbolicate, the `debugmeta` images (debug ID, code file, arch, address range, Symbolicator's
 * debug/unwind status), ProGuard images, and the processing errors the event carries
 * (`native_missing_dsym` and kin).
 */
import type { ApiEvent } from "../api/events.ts";
import { normalizeDebugId } from "./select.ts";

/** One image of the event (a loaded module, or a ProGuard mapping). */
export interface EventImage {
  type: string;
  debugId: string;
  codeFile: string | null;
  arch: string | null;
  start: bigint | null;
  end: bigint | null;
  /** Symbolicator's verdicts, when the event has them (`found`, `missing`, `unused`, `malformed`…). */
  debugStatus: string | null;
  unwindStatus: string | null;
}

/** One frame without a symbol. */
export interface UnsymbolicatedFrame {
  function: string | null;
  instructionAddr: string | null;
  package: string | null;
  module: string | null;
  /** Symbolicator's per-frame status (`missing`, `unknown_image`, `missing_symbol`…), when present. */
  status: string | null;
  image: EventImage | undefined;
}

/** A processing error of the event. */
export interface EventError {
  type: string;
  detail: string;
  imagePath: string | null;
  imageId: string | null;
  imageArch: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown) => (typeof x === "string" && x !== "" ? x : null);

function addr(x: unknown): bigint | null {
  if (typeof x === "number") return BigInt(x);
  if (typeof x !== "string" || !/^(0x[0-9a-f]+|\d+)$/i.test(x)) return null;
  return BigInt(x);
}

function entry(event: ApiEvent, type: string): Obj | undefined {
  const e = (event.entries ?? []).find((x) => x.type === type);
  return isObj(e?.data) ? e.data : undefined;
}

/** The event's images with a debug ID (native modules and ProGuard mappings). */
export function eventImages(event: ApiEvent): EventImage[] {
  const images = entry(event, "debugmeta")?.images;
  if (!Array.isArray(images)) return [];
  const out: EventImage[] = [];
  for (const img of images) {
    if (!isObj(img)) continue;
    const type = str(img.type) ?? "unknown";
    if (type === "sourcemap") continue;
    const raw = str(img.debug_id) ?? str(img.uuid) ?? str(img.id);
    const debugId = raw ? normalizeDebugId(raw) : undefined;
    if (!debugId) continue;
    const start = addr(img.image_addr);
    const size = addr(img.image_size);
    out.push({
      type,
      debugId,
      codeFile: str(img.code_file),
      arch: str(img.arch),
      start,
      end: start !== null && size !== null ? start + size : null,
      debugStatus: str(img.debug_status),
      unwindStatus: str(img.unwind_status),
    });
  }
  return out;
}

function isUnsymbolicated(f: Obj): boolean {
  const data = isObj(f.data) ? f.data : {};
  const status = str(data.symbolicator_status);
  if (status) return status !== "symbolicated";
  const fn = str(f.function);
  return str(f.instructionAddr) !== null && (fn === null || fn === "<unknown>" || /^0x[0-9a-f]+$/i.test(fn));
}

/** The frames without a symbol, crashing frame first, each with the image it falls in. */
export function unsymbolicatedFrames(event: ApiEvent, images: readonly EventImage[]): UnsymbolicatedFrame[] {
  const values = entry(event, "exception")?.values;
  const threads = entry(event, "threads")?.values;
  const stacks: unknown[] = [];
  if (Array.isArray(values))
    for (const v of values) if (isObj(v) && isObj(v.stacktrace)) stacks.push(v.stacktrace.frames);
  if (stacks.length === 0 && Array.isArray(threads)) {
    const crashed = threads.filter(isObj).find((t) => t.crashed === true) ?? threads.find(isObj);
    if (crashed && isObj(crashed.stacktrace)) stacks.push(crashed.stacktrace.frames);
  }
  const out: UnsymbolicatedFrame[] = [];
  for (const frames of stacks) {
    if (!Array.isArray(frames)) continue;
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i];
      if (!isObj(f) || !isUnsymbolicated(f)) continue;
      const at = addr(f.instructionAddr);
      const pkg = str(f.package);
      const image =
        images.find((m) => pkg !== null && m.codeFile === pkg) ??
        images.find((m) => at !== null && m.start !== null && m.end !== null && at >= m.start && at < m.end);
      out.push({
        function: str(f.function),
        instructionAddr: str(f.instructionAddr),
        package: pkg,
        module: str(f.module),
        status: isObj(f.data) ? str(f.data.symbolicator_status) : null,
        image,
      });
    }
  }
  return out;
}

/** The event's processing errors (`errors`), with the image they name. */
export function eventErrors(event: ApiEvent): EventError[] {
  const errors = (event as Obj).errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(isObj).map((e) => {
    const data = isObj(e.data) ? e.data : {};
    const id = str(data.image_uuid) ?? str(data.mapping_uuid);
    return {
      type: str(e.type) ?? "unknown",
      detail: str(e.message) ?? str(data.reason) ?? str(e.type) ?? "",
      imagePath: str(data.image_path),
      imageId: id ? (normalizeDebugId(id) ?? id) : null,
      imageArch: str(data.image_arch),
    };
  });
}
