/**
 * Which of the found debug files an upload sends (sentry-cli's filters, API.md §21.6): a debug ID
 * is required, then `--type`, `--id`, and the feature filters (a file goes when it has a feature
 * that is still wanted: symbols/debug info unless `--no-debug`, unwind info unless `--no-unwind`,
 * sources unless `--no-sources`; mappings always).
 */
import type { DifFormat } from "./types.ts";
import type { FoundDif, WalkNote } from "./walk.ts";

/** What to keep. */
export interface DifFilter {
  /** Formats to keep (none: all). */
  formats?: ReadonlySet<DifFormat>;
  /** Debug IDs to keep, normalised (none: all). */
  ids?: ReadonlySet<string>;
  debug: boolean;
  unwind: boolean;
  sources: boolean;
}

/** `--type` words → formats (`dsym` is Mach-O; `jvm` is a source bundle; `bcsymbolmap` includes UUID maps). */
export function formatsOfTypes(types: readonly string[]): Set<DifFormat> {
  const map: Record<string, DifFormat[]> = {
    dsym: ["macho"],
    macho: ["macho"],
    jvm: ["sourcebundle"],
    bcsymbolmap: ["bcsymbolmap", "uuidmap"],
  };
  return new Set(types.flatMap((t) => map[t] ?? [t as DifFormat]));
}

/**
 * A debug ID in Sentry's form: lower case, dashes, the age kept (`-1`), also from the Breakpad
 * form (32 hex + age hex) and from a bare 32-hex UUID. Undefined when it is not one.
 */
export function normalizeDebugId(raw: string): string | undefined {
  const s = raw.trim().toLowerCase();
  const dashed =
    /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})(?:[-.]?([0-9a-f]{1,8}))?$/.exec(
      s,
    );
  if (!dashed) return undefined;
  const uuid = dashed.slice(1, 6).join("-");
  const age = dashed[6] ? Number.parseInt(dashed[6], 16) : 0;
  return age === 0 ? uuid : `${uuid}-${age.toString(16)}`;
}

/** The files to send, and notes for those left out for a reason the user should hear. */
export function selectDifs(
  found: readonly FoundDif[],
  filter: DifFilter,
): { selected: FoundDif[]; notes: WalkNote[] } {
  const selected: FoundDif[] = [];
  const notes: WalkNote[] = [];
  for (const f of found) {
    const o = f.object;
    if (!o.debugId) {
      notes.push({ path: f.display, reason: `${o.format} (${o.arch}) has no debug ID (skipped)` });
      continue;
    }
    if (filter.formats && filter.formats.size > 0 && !filter.formats.has(o.format)) continue;
    if (filter.ids && filter.ids.size > 0 && !filter.ids.has(normalizeDebugId(o.debugId) ?? o.debugId))
      continue;
    const has = new Set(o.features);
    const wanted =
      (filter.debug && (has.has("symtab") || has.has("debug"))) ||
      (filter.unwind && has.has("unwind")) ||
      (filter.sources && has.has("sources")) ||
      has.has("mapping");
    if (!wanted) {
      notes.push({
        path: f.display,
        reason:
          o.features.length === 0
            ? "no symbols, debug, unwind or source information (skipped)"
            : `only ${o.features.join(", ")}, which the flags leave out (skipped)`,
      });
      continue;
    }
    selected.push(f);
  }
  return { selected, notes };
}
