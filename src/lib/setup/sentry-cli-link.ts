/**
 * `tracker cli setup --sentry-cli-link [dir]`: a `sentry-cli` link to tracker (next to it, or in
 * `dir`), so scripts and build plugins that run sentry-cli (SENTRY_CLI_BINARY) run tracker, which
 * reads sentry-cli's command line when started by that name. The link is created exclusively; an
 * existing sentry-cli (a real binary, or a link elsewhere) is replaced only with --force, by a
 * link made under a random name and renamed over it.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { quoteWord } from "../shell-quote.ts";

/** What --sentry-cli-link did. */
export interface SentryCliLink {
  path: string;
  target: string;
  status: "created" | "unchanged" | "replaced";
}

/** The link's file name on this platform. */
export function sentryCliLinkName(platform: string = process.platform): string {
  return platform === "win32" ? "sentry-cli.exe" : "sentry-cli";
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Creates (or, with `force`, replaces) `<dir>/sentry-cli` as a link to `target`. */
export function linkSentryCli(dir: string, target: string, force: boolean): SentryCliLink {
  const path = join(dir, sentryCliLinkName());
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir)
    throw new ConfigError(
      `${dir} is not a directory.`,
      "Give an existing directory: --sentry-cli-link <dir>.",
    );
  const st = (() => {
    try {
      return lstatSync(path);
    } catch {
      return undefined;
    }
  })();
  if (st?.isSymbolicLink() && resolve(dir, readlinkSync(path)) === resolve(target)) {
    return { path, target, status: "unchanged" };
  }
  if (st && !force) {
    const what = st.isSymbolicLink() ? `a link to ${readlinkSync(path)}` : "a file (a real sentry-cli?)";
    throw new ConfigError(
      `${path} already exists: ${what}. tracker leaves it alone.`,
      `Replace it with: tracker cli setup --sentry-cli-link ${quoteWord(dir)} --force (or pick another directory).`,
    );
  }
  if (!st) {
    try {
      symlinkSync(target, path);
      return { path, target, status: "created" };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw linkFailed(path, err);
      if (!force)
        throw new ConfigError(`${path} appeared while linking; tracker leaves it alone.`, "Run setup again.");
    }
  }
  const temp = join(dir, `.sentry-cli-${randomBytes(6).toString("hex")}`);
  try {
    symlinkSync(target, temp);
    renameSync(temp, path);
  } catch (err) {
    if (exists(temp)) rmSync(temp, { force: true });
    throw linkFailed(path, err);
  }
  return { path, target, status: "replaced" };
}

function linkFailed(path: string, err: unknown): ConfigError {
  const why = err instanceof Error ? err.message : String(err);
  return new ConfigError(
    `Could not create ${path}: ${why}`,
    "Pick a directory you can write to: tracker cli setup --sentry-cli-link <dir>.",
  );
}
