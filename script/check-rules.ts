/**
 * The codebase rules ARCHITECTURE.md states, checked (CI runs this):
 * - no src/ file over 300 lines unless its first 15 lines give the reason (`Over 300 lines: …`);
 * - one owner per table: SQL naming a table (FROM/INTO/UPDATE/JOIN/TABLE <name>) appears only in
 *   that table's module under src/lib/db/ (schema.ts may name every table: it declares them and
 *   the data moves of a repair);
 * - one naming rule for src/lib/ folders: kebab-case, and either a command word (the folder serves
 *   that family: `lib/log/` for `tracker log`) or one of the shared concerns listed below (never a
 *   plural of a command word, as `lib/logs/` beside `tracker log` was);
 * - the map is the house: every folder and top-level module of src/lib/ is named in
 *   ARCHITECTURE.md (as `lib/<name>/` or `lib/<name>.ts`), and every `lib/…`, `src/…` or
 *   `script/…` path it names exists.
 *
 *   bun run script/check-rules.ts
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { TABLES } from "../src/lib/db/schema.ts";

const ROOT = resolve(import.meta.dir, "..");
const MAX_LINES = 300;

/** The module that owns each table's SQL (the default is src/lib/db/<table with - for _>.ts). */
const OWNERS: Record<string, string> = {
  auth: "src/lib/db/auth.ts",
  logins: "src/lib/db/auth.ts",
  org_regions: "src/lib/db/regions.ts",
  dsn_scan_cache: "src/lib/db/dsn-cache.ts",
  target_aliases: "src/lib/db/aliases.ts",
};
const SCHEMA_MODULES = new Set(["src/lib/db/schema.ts"]);

/**
 * The src/lib/ folders that serve several command families, each named for its concern in the
 * singular. A folder for one family takes the family's command word instead.
 */
const CONCERN_FOLDERS = new Set([
  "api",
  "chunk",
  "config",
  "db",
  "dsn",
  "envelope",
  "explore",
  "format",
  "fs",
  "http",
  "resolve",
  "sentry-cli",
  "setup",
  "trim",
  "view",
]);

/** Problems with the names of src/lib/ folders (see CONCERN_FOLDERS). */
export function checkFolderNames(root = ROOT): string[] {
  const dir = join(root, "src/commands");
  const commands = new Set(
    (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
      .filter((e) => e.isDirectory())
      .map((e) => e.name),
  );
  const problems: string[] = [];
  for (const e of readdirSync(join(root, "src/lib"), { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const name = e.name;
    const word = name.endsWith("s") ? name.slice(0, -1) : "";
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) problems.push(`src/lib/${name}/: not kebab-case`);
    else if (commands.has(word) && !commands.has(name))
      problems.push(`src/lib/${name}/: the plural of the command word '${word}'; name it src/lib/${word}/`);
    else if (!commands.has(name) && !CONCERN_FOLDERS.has(name))
      problems.push(
        `src/lib/${name}/: neither a command word nor a listed shared concern (script/check-rules.ts CONCERN_FOLDERS)`,
      );
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Problems found in the tree; empty when the rules hold. */
export function checkRules(root = ROOT): string[] {
  const problems: string[] = [];
  const files = sourceFiles(join(root, "src")).map((p) => ({
    rel: relative(root, p),
    text: readFileSync(p, "utf8"),
  }));
  for (const { rel, text } of files) {
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const head = text.split("\n").slice(0, 15).join("\n");
    if (lines > MAX_LINES && !/Over 300 lines: \S/.test(head))
      problems.push(
        `${rel}: ${lines} lines (more than ${MAX_LINES}; split it by concern or give the reason at its top)`,
      );
  }
  for (const table of TABLES) {
    const owner = OWNERS[table.name] ?? `src/lib/db/${table.name.replaceAll("_", "-")}.ts`;
    const sql = new RegExp(`\\b(FROM|INTO|UPDATE|JOIN|TABLE)\\s+${table.name}\\b`);
    for (const { rel, text } of files) {
      if (rel === owner || SCHEMA_MODULES.has(rel)) continue;
      if (sql.test(text)) problems.push(`${rel}: SQL on table '${table.name}' outside its owner ${owner}`);
    }
  }
  problems.push(...checkFolderNames(root), ...checkArchitecture(root));
  return problems;
}

/** ARCHITECTURE.md against the tree: each src/lib entry is named, each named path exists. */
export function checkArchitecture(root = ROOT): string[] {
  const problems: string[] = [];
  const doc = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
  for (const e of readdirSync(join(root, "src/lib"), { withFileTypes: true })) {
    if (!e.isDirectory() && !e.name.endsWith(".ts")) continue;
    const name = e.isDirectory() ? `lib/${e.name}/` : `lib/${e.name}`;
    if (!doc.includes(name)) problems.push(`ARCHITECTURE.md does not name src/${name}`);
  }
  for (const m of doc.matchAll(/`((?:src\/|lib\/|script\/|test\/)[A-Za-z0-9_./-]+)`/g)) {
    const path = m[1] as string;
    if (/[<>*]/.test(path)) continue;
    const rel = path.startsWith("lib/") ? `src/${path}` : path;
    if (!existsSync(join(root, rel))) problems.push(`ARCHITECTURE.md names ${path}, which does not exist`);
  }
  return problems;
}

if (import.meta.main) {
  const problems = checkRules();
  for (const p of problems) console.error(p);
  console.log(problems.length === 0 ? "codebase rules hold" : `${problems.length} rule violation(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
