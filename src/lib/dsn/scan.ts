/**
 * Walks a project tree and collects DSN locations from `.env*` files and source code.
 * Skips dependency, build, VCS and virtualenv directories, symlinks, huge and binary files.
 * File-system access goes through `ScanHooks` so tests can prove when no scan happened.
 */
import { closeSync, type Dirent, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { openRegularFile } from "../fs/regular.ts";
import { envFileRank, isDsnVariable, parseEnvText } from "./env-file.ts";
import { isInComment, languageOf } from "./languages.ts";
import { findDsnsInText, parseDsn } from "./parse.ts";

/** Directory names never descended into. */
export const SKIP_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  "vendor",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  "tmp",
  "venv",
  "virtualenv",
  "site-packages",
  "__pycache__",
  "Pods",
  "DerivedData",
]);

/** Files larger than this are skipped (generated bundles, data dumps). */
export const MAX_FILE_BYTES = 256 * 1024;
/** Deepest directory level below the root that is scanned. */
export const MAX_DEPTH = 12;
/** Safety cap on files read by one scan. */
export const MAX_FILES_READ = 100_000;

/** Where one DSN was found. */
export interface DsnLocation {
  /** The DSN (no secret). */
  dsn: string;
  /** Absolute path of the file. */
  file: string;
  kind: "env-file" | "source";
  /** The variable name for `.env*` files. */
  variable?: string;
  /** 1-based line in source files. */
  line?: number;
  mtimeMs: number;
  size: number;
}

/** The outcome of one tree scan. */
export interface ScanResult {
  root: string;
  locations: DsnLocation[];
  /** Modification times of scanned directories (absolute path → ms), for cache verification. */
  dirMtimes: Record<string, number>;
  filesRead: number;
  /** True when the time budget ran out before the whole tree was read. */
  truncated: boolean;
}

/** File-system observer; tests count calls to prove a warm run does not rescan. */
export interface ScanHooks {
  onReadDir?(path: string): void;
  onReadFile?(path: string): void;
}

/** Options of scanTree. */
export interface ScanOptions {
  /** Mode for `.env.<mode>` priority (default `development`). */
  mode?: string;
  hooks?: ScanHooks;
  /** Deepest level scanned below the root (default MAX_DEPTH; 0 = the root directory only). */
  maxDepth?: number;
  /** Time budget in ms (default SCAN_BUDGET_MS): past it the scan stops and says it is incomplete. */
  budgetMs?: number;
}

/** How long one scan may take before it stops (a huge tree must not hold up every command). */
export const SCAN_BUDGET_MS = 2_000;

const BUF = Buffer.allocUnsafe(MAX_FILE_BYTES + 1);
const AT = 0x40;

/**
 * Reads a file into the shared buffer, at most MAX_FILE_BYTES + 1 bytes whatever stat says;
 * undefined when huge, unreadable, binary or not a regular file (a FIFO named `.env` would block
 * the open, a `/proc` link has no honest size).
 */
function readSmall(path: string, hooks: ScanHooks | undefined, needsAt = true): string | undefined {
  hooks?.onReadFile?.(path);
  const opened = openRegularFile(path);
  if (!opened.ok) return undefined;
  const fd = opened.fd;
  let n = 0;
  try {
    // One read may return less than asked on some file systems: keep reading to the cap or the end.
    while (n < BUF.length) {
      const got = readSync(fd, BUF, n, BUF.length - n, n);
      if (got === 0) break;
      n += got;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  if (n > MAX_FILE_BYTES) return undefined;
  const head = BUF.subarray(0, Math.min(n, 8000));
  if (head.indexOf(0) >= 0) return undefined;
  // Most files hold no '@' at all; skip decoding them.
  if (needsAt && BUF.subarray(0, n).indexOf(AT) < 0) return "";
  return BUF.toString("latin1", 0, n);
}

function statOf(path: string): { mtimeMs: number; size: number } {
  try {
    const s = statSync(path);
    return { mtimeMs: Math.floor(s.mtimeMs), size: s.size };
  } catch {
    return { mtimeMs: 0, size: 0 };
  }
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function scanEnvFiles(
  dir: string,
  names: string[],
  mode: string,
  hooks: ScanHooks | undefined,
): DsnLocation[] {
  const ranked = names
    .map((name) => ({ name, rank: envFileRank(name, mode) }))
    .filter((f): f is { name: string; rank: number } => f.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
  const seenVars = new Set<string>();
  const out: DsnLocation[] = [];
  for (const f of ranked) {
    const path = join(dir, f.name);
    // Read even without '@': a blank value here still shadows the same variable in lower-ranked files.
    const text = readSmall(path, hooks, false);
    if (text === undefined) continue;
    for (const [key, value] of parseEnvText(text)) {
      if (!isDsnVariable(key) || seenVars.has(key)) continue;
      // A blank value in a higher-priority file still shadows lower ones, like dotenv loading does.
      seenVars.add(key);
      const dsn = value ? parseDsn(value) : undefined;
      if (dsn) out.push({ dsn: dsn.raw, file: path, kind: "env-file", variable: key, ...statOf(path) });
    }
  }
  return out;
}

function scanSource(path: string, hooks: ScanHooks | undefined): DsnLocation[] {
  const lang = languageOf(path);
  if (!lang) return [];
  const text = readSmall(path, hooks);
  if (!text) return [];
  const out: DsnLocation[] = [];
  for (const dsn of findDsnsInText(text, (at) => !isInComment(text, at, lang))) {
    out.push({ dsn: dsn.raw, file: path, kind: "source", line: lineAt(text, dsn.index), ...statOf(path) });
  }
  return out;
}

/** Scans the tree under `root` (inclusive) for DSNs. */
export function scanTree(root: string, opts: ScanOptions = {}): ScanResult {
  const hooks = opts.hooks;
  const mode = (opts.mode ?? "development").toLowerCase();
  const maxDepth = opts.maxDepth ?? MAX_DEPTH;
  const locations: DsnLocation[] = [];
  const dirMtimes: Record<string, number> = {};
  let filesRead = 0;
  let truncated = false;
  const deadline = performance.now() + (opts.budgetMs ?? SCAN_BUDGET_MS);
  const stack: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  let first = true;
  while (stack.length > 0) {
    // The root itself is always read; below it, only while the budget lasts.
    if (!first && performance.now() > deadline) {
      truncated = true;
      break;
    }
    first = false;
    const { dir, depth } = stack.pop() as { dir: string; depth: number };
    hooks?.onReadDir?.(dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    // A virtualenv has no fixed name; its pyvenv.cfg gives it away.
    if (depth > 0 && entries.some((e) => e.name === "pyvenv.cfg")) continue;
    dirMtimes[dir] = statOf(dir).mtimeMs;
    const envNames: string[] = [];
    const subdirs: string[] = [];
    for (const e of entries) {
      const name = e.name;
      if (e.isDirectory()) {
        if (name.startsWith(".") || SKIP_DIRS.has(name) || depth >= maxDepth) continue;
        subdirs.push(name);
      } else if (e.isFile()) {
        if (name.startsWith(".env")) envNames.push(name);
        else if (filesRead < MAX_FILES_READ && languageOf(name)) {
          filesRead++;
          locations.push(...scanSource(join(dir, name), hooks));
        }
      }
    }
    if (envNames.length > 0) {
      filesRead += envNames.length;
      locations.push(...scanEnvFiles(dir, envNames, mode, hooks));
    }
    for (let i = subdirs.length - 1; i >= 0; i--) {
      stack.push({ dir: join(dir, subdirs[i] as string), depth: depth + 1 });
    }
  }
  return { root, locations, dirMtimes, filesRead, truncated };
}
