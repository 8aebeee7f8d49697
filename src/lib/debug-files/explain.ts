/**
 * Why a native or JVM frame is not symbolicated (`debug-files explain`): for each image the
 * unsymbolicated frames fall in, the service's files with that debug ID (`…/files/dsyms/?debug_id=`)
 * and the event's processing errors decide one cause, and the first cause gives the command that
 * fixes it (every value shell-quoted).
 */
import type { TrackerContext } from "../../context.ts";
import { type DebugFile, listDebugFiles } from "../api/difs.ts";
import { quoteWord } from "../shell-quote.ts";
import type { EventError, EventImage, UnsymbolicatedFrame } from "./event-images.ts";

/** What keeps an image's frames unsymbolicated. */
export type ImageCause =
  | "missing_file"
  | "no_debug_info"
  | "no_unwind_info"
  | "wrong_arch"
  | "processing_error"
  | "proguard_missing"
  | "uploaded_after_event"
  | "no_image";

/** One image's diagnosis. */
export interface ImageExplanation {
  debugId: string;
  codeFile: string | null;
  arch: string | null;
  type: string;
  cause: ImageCause | null;
  detail: string;
  files: {
    id: string;
    objectName: string | null;
    cpuName: string | null;
    features: string[];
    dateCreated: string | null;
  }[];
}

/** What the fix needs to know of the event. */
export interface NativeExplainContext {
  org: string;
  project: string;
  release: string | null;
  dateReceived: string | null;
}

const ERROR_TYPES = new Set([
  "native_missing_dsym",
  "native_bad_dsym",
  "native_missing_optionally_bundled_dsym",
  "native_missing_symbol",
  "native_simulator_frame",
  "native_unknown_image",
  "native_symbolicator_failed",
  "native_internal_failure",
  "native_unsupported_dsym",
  "proguard_missing_mapping",
  "proguard_missing_lineno",
]);

function featuresOf(f: DebugFile): string[] {
  return f.data?.features ?? [];
}

function sameArch(a: string, b: string): boolean {
  const alias: Record<string, string> = { amd64: "x86_64", aarch64: "arm64", i386: "x86", i686: "x86" };
  const norm = (x: string) => alias[x.toLowerCase()] ?? x.toLowerCase();
  return norm(a) === norm(b);
}

/** One image's cause, from the files the service has and the errors the event carries. */
export function diagnoseImage(
  image: EventImage,
  files: readonly DebugFile[],
  errors: readonly EventError[],
  ec: NativeExplainContext,
): Pick<ImageExplanation, "cause" | "detail"> {
  const err = errors.find(
    (e) =>
      ERROR_TYPES.has(e.type) &&
      (e.imageId === image.debugId || (e.imagePath !== null && e.imagePath === image.codeFile)),
  );
  if (image.type === "proguard" && files.length === 0)
    return {
      cause: "proguard_missing",
      detail: `no ProGuard mapping with UUID ${image.debugId} was uploaded${ec.release ? ` (release ${ec.release})` : ""}`,
    };
  if (files.length === 0)
    return {
      cause: "missing_file",
      detail: `no debug information file with debug ID ${image.debugId} on the service${err ? ` (event error ${err.type})` : ""}`,
    };
  if (err && err.type !== "native_missing_dsym")
    return { cause: "processing_error", detail: `${err.type}: ${err.detail}` };
  if (
    image.arch &&
    files.every((f) => f.cpuName && f.cpuName !== "any" && !sameArch(f.cpuName, image.arch as string))
  )
    return {
      cause: "wrong_arch",
      detail: `the uploaded file is for ${[...new Set(files.map((f) => f.cpuName))].join(", ")}, the event's image is ${image.arch}`,
    };
  const features = new Set(files.flatMap(featuresOf));
  if (
    image.type !== "proguard" &&
    !features.has("symtab") &&
    !features.has("debug") &&
    !features.has("mapping")
  )
    return {
      cause: "no_debug_info",
      detail: `the uploaded file has only ${[...features].join(", ") || "no features"}: no symbols or debug information`,
    };
  if (image.unwindStatus === "missing" && !features.has("unwind"))
    return {
      cause: "no_unwind_info",
      detail:
        "the uploaded files have symbols but no unwind information (stack walking fell back to scanning)",
    };
  const newest =
    files
      .map((f) => f.dateCreated ?? "")
      .sort()
      .at(-1) ?? "";
  if (ec.dateReceived && newest > ec.dateReceived)
    return {
      cause: "uploaded_after_event",
      detail: `the file was uploaded (${newest}) after the event arrived (${ec.dateReceived}); new events will be symbolicated`,
    };
  if (err) return { cause: "processing_error", detail: `${err.type}: ${err.detail}` };
  return { cause: null, detail: "the service has a usable file for this image" };
}

/** Diagnoses every image an unsymbolicated frame falls in (one dsyms lookup per image). */
export async function explainImages(
  ctx: TrackerContext,
  frames: readonly UnsymbolicatedFrame[],
  proguard: readonly EventImage[],
  errors: readonly EventError[],
  ec: NativeExplainContext,
): Promise<ImageExplanation[]> {
  const byId = new Map<string, EventImage>();
  for (const f of frames) if (f.image) byId.set(f.image.debugId, f.image);
  for (const p of proguard) byId.set(p.debugId, p);
  const out: ImageExplanation[] = [];
  for (const image of byId.values()) {
    const files = await listDebugFiles(ctx, ec.org, ec.project, { debugId: image.debugId });
    out.push({
      debugId: image.debugId,
      codeFile: image.codeFile,
      arch: image.arch,
      type: image.type,
      ...diagnoseImage(image, files, errors, ec),
      files: files.map((f) => ({
        id: String(f.id),
        objectName: f.objectName ?? null,
        cpuName: f.cpuName ?? null,
        features: featuresOf(f),
        dateCreated: f.dateCreated ?? null,
      })),
    });
  }
  return out;
}

/** The command that fixes the first image with a cause, values quoted; undefined when none does. */
export function fixCommand(
  images: readonly ImageExplanation[],
  ec: NativeExplainContext,
): string | undefined {
  const target = quoteWord(`${ec.org}/${ec.project}`);
  const first = images.find((i) => i.cause !== null && i.cause !== "uploaded_after_event");
  if (!first) return undefined;
  const id = quoteWord(first.debugId);
  switch (first.cause) {
    case "proguard_missing":
      return `tracker proguard upload <mapping.txt> ${target}${ec.release ? ` --release ${quoteWord(ec.release)}` : ""}`;
    case "missing_file":
    case "processing_error":
    case "wrong_arch":
      return `tracker debug-files upload <build-output-dir> ${target} --id ${id} --require-all --wait`;
    case "no_debug_info":
      return `tracker debug-files upload <unstripped-binary-or-dSYM> ${target} --id ${id} --wait`;
    case "no_unwind_info":
      return `tracker debug-files upload <binary-with-eh_frame> ${target} --id ${id} --wait`;
    default:
      return undefined;
  }
}
