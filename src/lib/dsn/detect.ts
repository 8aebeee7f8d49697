/**
 * DSN detection around the working directory: TRACKER_DSN, else a scan of the project root
 * (`.env*` files and source code), served from the scan cache when every cached file and the
 * directories from the working directory up to the root are unchanged.
 */
import { statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { readScanCache, type ScanCacheEntry, writeScanCache } from "../db/dsn-cache.ts";
import { ignoredFileWarning, untrustedReason } from "../config/trust.ts";
import { ConfigError } from "../errors.ts";
import { type Dsn, parseDsn } from "./parse.ts";
import { ancestorChain, findProjectRoot, isMarkedRoot } from "./root.ts";
import { type DsnLocation, type ScanHooks, scanTree } from "./scan.ts";

/** One DSN found for the working directory, with a human label of where it came from. */
export interface FoundDsn {
  dsn: Dsn;
  /** `TRACKER_DSN`/`SENTRY_DSN`, or the file path relative to the working directory (e.g. `.env`, `apps/web/.env`). */
  source: string;
  /** Absolute path of the file, when it came from a file. */
  file?: string;
  location?: DsnLocation;
}

/** Options of findDsns. */
export interface FindDsnOptions {
  /** Ignore the scan cache (and rewrite it). */
  fresh?: boolean;
  /** File-system observer (tests use it to prove a warm run reads nothing). */
  hooks?: ScanHooks;
  /** The scan's time budget in ms (tests make it run out). */
  budgetMs?: number;
}

/** The DSNs that apply to the working directory and whether the scan cache served them. */
export interface DsnDetection {
  root: string | undefined;
  found: FoundDsn[];
  fromCache: boolean;
}

function unchanged(path: string, mtimeMs: number, size?: number): boolean {
  try {
    const s = statSync(path);
    return Math.floor(s.mtimeMs) === mtimeMs && (size === undefined || s.size === size);
  } catch {
    return false;
  }
}

/** True when every cached DSN file and every scanned directory between cwd and root is unchanged. */
export function verifyScanCache(entry: ScanCacheEntry, cwd: string): boolean {
  for (const loc of entry.locations) if (!unchanged(loc.file, loc.mtimeMs, loc.size)) return false;
  for (const dir of ancestorChain(cwd, entry.root)) {
    const m = entry.dirMtimes[dir];
    if (m !== undefined && !unchanged(dir, m)) return false;
  }
  return true;
}

function within(dir: string, parent: string): boolean {
  return dir === parent || dir.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/**
 * Picks the locations that apply to `cwd`: those at or below it; else those of the nearest
 * ancestor directory that has any; else every location of the root (a monorepo seen from a
 * directory of its own). Each DSN appears once, `.env*` files before source code, shallow first.
 */
export function scopeLocations(locations: readonly DsnLocation[], cwd: string, root: string): DsnLocation[] {
  const sorted = [...locations].sort(
    (a, b) =>
      (a.kind === "env-file" ? 0 : 1) - (b.kind === "env-file" ? 0 : 1) ||
      a.file.split(sep).length - b.file.split(sep).length ||
      a.file.localeCompare(b.file),
  );
  let picked = sorted.filter((l) => within(dirname(l.file), cwd));
  if (picked.length === 0) {
    for (const dir of ancestorChain(cwd, root)) {
      picked = sorted.filter((l) => dirname(l.file) === dir);
      if (picked.length > 0) break;
    }
  }
  if (picked.length === 0) picked = sorted;
  const seen = new Set<string>();
  return picked.filter((l) => !seen.has(l.dsn) && seen.add(l.dsn));
}

/**
 * Most distinct DSNs one command resolves to projects (each costs a lookup on a cold cache): a
 * repository with thousands of DSNs must not send thousands of requests.
 */
export const MAX_DETECTED_DSNS = 50;

/**
 * One entry per project key (the same key written with or without a secret, or another ingest
 * host, is the same project), then at most MAX_DETECTED_DSNS of them, in scope order (.env files
 * first, shallowest first). What was skipped is said once on stderr.
 */
function boundDsns(ctx: TrackerContext, found: readonly FoundDsn[], root: string): FoundDsn[] {
  const byKey = new Map<string, FoundDsn>();
  for (const f of found) {
    const key = `${f.dsn.publicKey}/${f.dsn.projectId}`;
    if (!byKey.has(key)) byKey.set(key, f);
  }
  const distinct = [...byKey.values()];
  if (distinct.length <= MAX_DETECTED_DSNS) return distinct;
  if (!ctx.said.has("dsn-cap")) {
    ctx.said.add("dsn-cap");
    ctx.log.warn(
      `Found ${distinct.length} different DSNs under ${root}; using the first ${MAX_DETECTED_DSNS} (.env files first, then the shallowest). Name a target to pick another: tracker issue list <org>/<project>.`,
    );
  }
  return distinct.slice(0, MAX_DETECTED_DSNS);
}

/**
 * A `.env*` DSN counts only from a file the user owns in a directory only they can write
 * (config/trust.ts); checked on every run, cache hit or not, and said once per file.
 */
function trustedEnvFile(ctx: TrackerContext, loc: DsnLocation): boolean {
  if (loc.kind !== "env-file") return true;
  const why = untrustedReason(loc.file);
  if (!why) return true;
  const key = `untrusted:${loc.file}`;
  if (!ctx.said.has(key)) {
    ctx.said.add(key);
    ctx.log.warn(ignoredFileWarning(loc.file, why));
  }
  return false;
}

/** Finds the DSNs for the working directory (TRACKER_DSN, else SENTRY_DSN, wins over files). */
export function findDsns(ctx: TrackerContext, opts: FindDsnOptions = {}): DsnDetection {
  const envDsn = ctx.settings.dsn;
  if (envDsn) {
    const name = ctx.settings.dsnVar ?? "TRACKER_DSN";
    const dsn = parseDsn(envDsn);
    if (!dsn) {
      throw new ConfigError(
        `${name} is not a valid DSN.`,
        "Use the form https://<public key>@<host>/<project id>, as shown in the project's Client Keys settings.",
      );
    }
    ctx.log.debug(`Target: using ${name} from the environment`);
    return { root: undefined, found: [{ dsn, source: name }], fromCache: false };
  }
  const root = findProjectRoot(ctx.cwd, ctx.homeDir);
  const mode = (ctx.env.NODE_ENV?.trim() || "development").toLowerCase();
  let entry = opts.fresh ? undefined : readScanCache(ctx, root);
  let fromCache = false;
  if (entry && entry.mode === mode && verifyScanCache(entry, ctx.cwd)) {
    fromCache = true;
    ctx.log.debug(`Target: DSN scan cache hit for ${root} (${entry.locations.length} location(s) verified)`);
  } else {
    const started = performance.now();
    // Outside any project (no VCS or project marker from here up; the home directory; the
    // file-system root) only the current directory itself is read, never the tree below it.
    const shallow = root === resolve(ctx.homeDir) || dirname(root) === root || !isMarkedRoot(root);
    const scan = scanTree(root, {
      mode,
      hooks: opts.hooks,
      maxDepth: shallow ? 0 : undefined,
      budgetMs: opts.budgetMs,
    });
    const ms = Math.round(performance.now() - started);
    ctx.log.debug(
      `Target: scanned ${root}${shallow ? " (this directory only: not inside a project)" : ""} for DSNs: ${scan.filesRead} file(s) read, ${scan.locations.length} DSN location(s), ${ms} ms`,
    );
    entry = { v: 1, root, mode, locations: scan.locations, dirMtimes: scan.dirMtimes };
    if (scan.truncated) {
      // An incomplete scan is used for this run only: a later run scans again.
      ctx.log.warn(
        `DSN detection stopped after ${ms} ms in ${root} (${scan.filesRead} file(s) read); DSNs in files not read are not used. Name the project (<org>/<project>) or set TRACKER_DSN.`,
      );
    } else {
      writeScanCache(ctx, entry);
    }
  }
  const found: FoundDsn[] = [];
  for (const loc of scopeLocations(entry.locations, ctx.cwd, root)) {
    const dsn = parseDsn(loc.dsn);
    if (!dsn || !trustedEnvFile(ctx, loc)) continue;
    const rel = relative(ctx.cwd, loc.file) || loc.file;
    found.push({ dsn, source: loc.line ? `${rel}:${loc.line}` : rel, file: loc.file, location: loc });
  }
  return { root, found: boundDsns(ctx, found, root), fromCache };
}

/**
 * The DSN `auth status` shows: the first one that applies to the working directory and where it
 * was found; null when none. Never fails the command: problems are logged as warnings.
 */
export function detectDsnForStatus(ctx: TrackerContext): { dsn: string; source: string } | null {
  try {
    const first = findDsns(ctx).found[0];
    return first ? { dsn: first.dsn.raw, source: first.source } : null;
  } catch (err) {
    ctx.log.warn(`DSN detection failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
