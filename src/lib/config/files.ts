/**
 * Finding and reading the Sentry tools' configuration files for one run: `sentry.properties` (at
 * SENTRY_PROPERTIES, else in the working directory), every `.sentryclirc` from the working
 * directory upward, then `~/.sentryclirc`. Pure readers: no settings, no logging, no database.
 */
import { dirname, join, resolve } from "node:path";
import { readRegularFile } from "../fs/regular.ts";
import { parseSentryProperties } from "./properties.ts";
import { type ConfigValues, parseSentryclirc } from "./sentryclirc.ts";
import { untrustedReason } from "./trust.ts";

/** One configuration file that was found and read. */
export interface ConfigFile {
  kind: "sentryclirc" | "properties";
  /** Absolute path. */
  path: string;
  /** `home`: `~/.sentryclirc`, the global file, ranked last; `local`: any other. */
  scope: "local" | "home";
  values: ConfigValues;
}

/** Largest configuration file read (anything bigger is no configuration file). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** A config file's text: only a regular file (no FIFO, no /proc link), read up to the cap while reading. */
function readSmall(path: string): string | undefined {
  const read = readRegularFile(path, MAX_CONFIG_BYTES);
  return read.ok ? read.data.toString("utf8") : undefined;
}

/**
 * The configuration files of a run, highest precedence first: `sentry.properties`, the
 * `.sentryclirc` files from `cwd` upward (nearest first), then `~/.sentryclirc`. Files that are
 * missing, unreadable or name nothing tracker uses are left out; so are files another user owns or
 * can write (config/trust.ts), each passed to `onIgnored` with the reason.
 */
export function readConfigFiles(
  cwd: string,
  homeDir: string,
  env: Record<string, string | undefined>,
  onIgnored?: (path: string, reason: string) => void,
): ConfigFile[] {
  const out: ConfigFile[] = [];
  const add = (kind: ConfigFile["kind"], path: string, scope: ConfigFile["scope"]) => {
    if (out.some((f) => f.path === path)) return;
    const distrust = untrustedReason(path);
    if (distrust) {
      onIgnored?.(path, distrust);
      return;
    }
    const text = readSmall(path);
    if (text === undefined) return;
    const values = kind === "sentryclirc" ? parseSentryclirc(text) : parseSentryProperties(text);
    if (Object.keys(values).length > 0) out.push({ kind, path, scope, values });
  };
  const explicit = env.SENTRY_PROPERTIES?.trim();
  add("properties", explicit ? resolve(cwd, explicit) : join(resolve(cwd), "sentry.properties"), "local");
  const home = join(resolve(homeDir), ".sentryclirc");
  let dir = resolve(cwd);
  for (;;) {
    const path = join(dir, ".sentryclirc");
    if (path !== home) add("sentryclirc", path, "local");
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  add("sentryclirc", home, "home");
  return out;
}
