/**
 * Which words of argv are flag values: the output-shaping flags every command takes, and the flags
 * of the command argv reaches that take a value (so their values are never read as global flags).
 */
import type { RouteMap } from "@stricli/core";
import type { TrackerContext } from "./context.ts";

/** Output-shaping flags, read by main for every command (they never reach Stricli). */
export const SHAPING_FLAGS: Record<string, "fields" | "maxChars" | "format" | "jq"> = {
  "--fields": "fields",
  "--max-chars": "maxChars",
  "--maxChars": "maxChars",
  "--format": "format",
  "--jq": "jq",
};

function isRouteMap(t: unknown): t is RouteMap<TrackerContext> {
  return typeof t === "object" && t !== null && "getRoutingTargetForInput" in t;
}

interface FlagShape {
  kind: string;
}

/**
 * The flag words of the command argv reaches that take a value (`--query`, `-q`, `--message`, …):
 * their values are the command's, never global flags, whatever they look like
 * (`tracker issue note X -m --json` is a note saying "--json").
 */
export function valueFlagsOf(argv: readonly string[], root: RouteMap<TrackerContext>): Set<string> {
  let target: unknown = root;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--" || !isRouteMap(target)) break;
    if (word.startsWith("-")) {
      // A global flag's value is not a command word.
      if (SHAPING_FLAGS[word] || word === "--log-level" || word === "--logLevel") i++;
      continue;
    }
    const next = target.getRoutingTargetForInput(word);
    if (!next) break;
    target = next;
  }
  if (isRouteMap(target)) target = target.getDefaultCommand();
  const params = (
    target as { parameters?: { flags?: Record<string, FlagShape>; aliases?: Record<string, string> } }
  )?.parameters;
  const out = new Set<string>();
  for (const [name, spec] of Object.entries(params?.flags ?? {})) {
    if (spec.kind === "boolean") continue;
    out.add(`--${name}`);
    out.add(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }
  for (const [alias, name] of Object.entries(params?.aliases ?? {}))
    if (out.has(`--${name}`)) out.add(`-${alias}`);
  // The global flags keep their meaning: they are declared on every command too.
  for (const own of ["--log-level", "--logLevel"]) out.delete(own);
  return out;
}
