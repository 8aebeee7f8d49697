/**
 * The parts of an event `sourcemap explain` reads (API.md §20.4): the still-minified JavaScript
 * frames of every exception, the `debugmeta` images that give a file its debug ID, the release and
 * dist tags, and the processing errors that say a location is not in a map.
 */
import type { ApiEvent } from "../api/events.ts";
import { normaliseDebugId } from "./debug-id.ts";

/** One still-minified frame. */
export interface MinifiedFrame {
  /** Position among the event's exceptions and their frames (as the debug endpoint lists them). */
  exception: number;
  index: number;
  absPath: string;
  function: string | null;
  lineNo: number | null;
  colNo: number | null;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown) => (typeof x === "string" ? x : null);
const num = (x: unknown) => (typeof x === "number" ? x : null);

function entry(event: ApiEvent, type: string): Obj | undefined {
  const e = (event.entries ?? []).find((x) => x.type === type);
  return isObj(e?.data) ? e.data : undefined;
}

/** True for a frame of a JS file that no map was applied to. */
function isMinified(f: Obj): boolean {
  const abs = str(f.absPath) ?? str(f.filename) ?? "";
  if (!/\.(?:m|c)?js(?:[?#].*)?$/.test(abs) || abs.startsWith("node:")) return false;
  const data = isObj(f.data) ? f.data : {};
  if (data.symbolicated === true || typeof data.sourcemap === "string") return false;
  return true;
}

/** The still-minified frames, crashing frame first within each exception. */
export function minifiedFrames(event: ApiEvent): MinifiedFrame[] {
  const values = entry(event, "exception")?.values;
  const out: MinifiedFrame[] = [];
  if (!Array.isArray(values)) return out;
  values.forEach((val, exception) => {
    const frames = isObj(val) && isObj(val.stacktrace) ? val.stacktrace.frames : undefined;
    if (!Array.isArray(frames)) return;
    for (let index = frames.length - 1; index >= 0; index--) {
      const f = frames[index];
      if (!isObj(f) || !isMinified(f)) continue;
      out.push({
        exception,
        index,
        absPath: (str(f.absPath) ?? str(f.filename)) as string,
        function: str(f.function),
        lineNo: num(f.lineNo),
        colNo: num(f.colNo),
      });
    }
  });
  return out;
}

/** Debug IDs by file (`code_file`) from the event's `debugmeta` images of type `sourcemap`. */
export function debugImages(event: ApiEvent): Map<string, string> {
  const images = entry(event, "debugmeta")?.images;
  const byFile = new Map<string, string>();
  if (!Array.isArray(images)) return byFile;
  for (const img of images) {
    if (!isObj(img) || img.type !== "sourcemap") continue;
    const file = str(img.code_file);
    const id = normaliseDebugId(img.debug_id);
    if (file && id) byFile.set(file, id);
  }
  return byFile;
}

/** A tag's value (`release`, `dist`). */
export function eventTag(event: ApiEvent, key: string): string | undefined {
  const direct = (event as Obj)[key];
  if (typeof direct === "string" && direct !== "") return direct;
  if (isObj(direct) && typeof direct.version === "string") return direct.version;
  return event.tags?.find((t) => t.key === key)?.value ?? undefined;
}

/** True when a processing error says the frame's position is not covered by its map. */
export function notCoveredByMap(event: ApiEvent, f: MinifiedFrame): boolean {
  const errors = (event as Obj).errors;
  if (!Array.isArray(errors)) return false;
  return errors.some(
    (e) =>
      isObj(e) &&
      typeof e.type === "string" &&
      /sourcemap_location|source_mapping/.test(e.type) &&
      JSON.stringify(e.data ?? {}).includes(f.absPath),
  );
}
