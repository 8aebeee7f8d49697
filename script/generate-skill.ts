/**
 * Generates skills/tracker-cli/SKILL.md (the agent skill file embedded in the binary and installed
 * by `tracker cli setup`) from the route map, the global flags and the exit-code table, so it can
 * never describe flags the CLI does not have. Output is deterministic: same sources, same bytes.
 *
 *   bun run script/generate-skill.ts            write the file
 *   bun run script/generate-skill.ts --check    exit 1 when the committed file is stale
 *   --file <path>                               another file to write or check
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command, CommandContext, RouteMap } from "@stricli/core";
import { loadRootRoutes } from "../src/app.ts";
import { EXIT_CODE_TABLE } from "../src/lib/exit-codes.ts";
import { BREW_FORMULA, NPM_PACKAGE } from "../src/lib/upgrade/release.ts";
import { ROOT_HELP_MODULE, rootHelpModule } from "./root-help.ts";

const rootRoutes = await loadRootRoutes();

const ROOT = resolve(import.meta.dir, "..");
/** Path of the committed skill file. */
export const SKILL_PATH = resolve(ROOT, "skills/tracker-cli/SKILL.md");

type AnyTarget = Command<CommandContext> | RouteMap<CommandContext>;

interface FlagSpec {
  kind: "boolean" | "enum" | "parsed" | "counter";
  brief: string;
  default?: unknown;
  optional?: boolean;
  variadic?: boolean | string;
  values?: readonly string[];
  withNegated?: boolean;
  placeholder?: string;
  hidden?: boolean;
}

interface PositionalSpec {
  placeholder?: string;
  brief: string;
  optional?: boolean;
  default?: string;
}

const GLOBAL_FLAGS = new Set(["json", "verbose", "logLevel"]);

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function isRouteMap(t: AnyTarget): t is RouteMap<CommandContext> {
  return "getAllEntries" in t;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function examplesOf(full: string | undefined): string[] {
  if (!full) return [];
  const at = full.indexOf("Examples:\n");
  if (at < 0) return [];
  return full
    .slice(at + "Examples:\n".length)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

function positionalsOf(cmd: Command<CommandContext>): PositionalSpec[] {
  const p = cmd.parameters.positional as
    | { kind: "tuple"; parameters: readonly PositionalSpec[] }
    | { kind: "array"; parameter: PositionalSpec; minimum?: number }
    | undefined;
  if (!p) return [];
  if (p.kind === "tuple") return [...p.parameters];
  return [{ ...p.parameter, placeholder: `${p.parameter.placeholder ?? "arg"}...`, optional: !p.minimum }];
}

/** One flag in a few characters: `-n/--limit=25`, `-s/--sort date|new`, `--dry-run`. */
function compactFlag(name: string, f: FlagSpec, aliases: Record<string, string> | undefined): string {
  const alias = Object.entries(aliases ?? {}).find(([, target]) => target === name)?.[0];
  const label = `${alias ? `-${alias}/` : ""}--${kebab(name)}`;
  if (f.kind === "boolean") return f.withNegated && f.default === true ? `--no-${kebab(name)}` : label;
  if (f.kind === "enum" && f.values) return `${label} ${f.values.join("|")}`;
  const def = f.default === undefined ? "" : `=${String(f.default)}`;
  return `${label}${def}`;
}

function renderCommand(path: string, cmd: Command<CommandContext>, out: string[]): void {
  const args = positionalsOf(cmd).map((p, i) => {
    const name = p.placeholder ?? `arg${i + 1}`;
    return p.optional || p.default !== undefined ? `[${name}]` : `<${name}>`;
  });
  const flags = (cmd.parameters.flags ?? {}) as Record<string, FlagSpec>;
  const aliases = cmd.parameters.aliases as Record<string, string> | undefined;
  const own = Object.keys(flags)
    .filter((f) => !GLOBAL_FLAGS.has(f) && !flags[f]?.hidden)
    .map((f) => `\`${compactFlag(f, flags[f] as FlagSpec, aliases)}\``);
  const example = examplesOf(cmd.fullDescription)[0];
  out.push(`### \`${[path, ...args].join(" ")}\``, "");
  out.push(
    `${cmd.brief}.${own.length > 0 ? ` ${own.join(" ")}` : ""}${example ? ` E.g. \`${example}\`` : ""}`,
    "",
  );
}

interface Walk {
  out: string[];
  /** Visible command paths by command object, to name what a hidden shortcut stands for. */
  paths: Map<AnyTarget, string>;
  shortcuts: { path: string; target: AnyTarget }[];
}

function walk(prefix: string, map: RouteMap<CommandContext>, w: Walk): void {
  const out = w.out;
  for (const entry of map.getAllEntries()) {
    const path = `${prefix} ${entry.name["convert-camel-to-kebab"]}`;
    const target = entry.target as AnyTarget;
    if (entry.hidden) {
      w.shortcuts.push({ path, target });
      continue;
    }
    w.paths.set(target, path);
    if (isRouteMap(target)) walk(path, target, w);
    else renderCommand(path, target, out);
  }
}

const HEADER = `---
name: tracker-cli
description: Use the tracker CLI to read issues, events and traces from Sentry-compatible error tracking (hosted or self-hosted), run AI root-cause analysis and fix plans for issues, and manage login and defaults. Prefer --json output and branch on exit codes.
---

# tracker CLI

<!-- Generated by script/generate-skill.ts from the command definitions. Do not edit by hand: run \`bun run generate:skill\`. -->

\`tracker\` talks to a Sentry-compatible service (\`https://sentry.io\` or the address in \`TRACKER_URL\`).
Every command prints its result on stdout and everything else (logs, tips, progress, errors) on
stderr. With \`--json\` stdout holds exactly one JSON document, also when the result is empty.`;

const PREREQUISITES = `## Setup

Install: \`curl -fsSL https://github.com/tracker-cli/tracker/releases/latest/download/install.sh | sh\`
(or \`brew install ${BREW_FORMULA}\`, \`npm install -g ${NPM_PACKAGE}\`). Log in once with \`tracker auth login\`
(device flow) or \`tracker auth login --token\` (token on stdin); in CI set \`TRACKER_AUTH_TOKEN\` (wins over
\`TRACKER_TOKEN\` and stored logins; never commit or print it). Login asks for \`org:read project:read
project:releases event:read event:write\`; \`auth login --read-only\` for a token that cannot change anything;
a 403 (exit 30) names the scope the endpoint needs and the token's. Self-hosted:
\`TRACKER_URL\` (OAuth also needs \`TRACKER_CLIENT_ID\`). \`tracker auth status\` shows where everything comes from.`;

const AUTH = `## Targets and issues

A target is \`<org>/<project>\`, \`<project>\` (searched across organizations), \`<org>/\` (whole org) or
nothing: then \`TRACKER_ORG\`/\`TRACKER_PROJECT\`, \`tracker defaults set\`, or a DSN in \`TRACKER_DSN\`, \`.env\`
or source code. In scripts pass it explicitly; slugs are case-sensitive. An issue is a short ID (\`WEB-4Y\`),
a numeric ID, \`<org>/<SHORT-ID>\`, an alias-suffix (\`w-4Y\`) or an issue URL; changing commands also take
\`-\` (one per line on stdin) or \`--query '<search>' <target>\` (needs \`--yes\` without a terminal;
preview with \`--dry-run\`). Run \`tracker <command> --help\` for every flag's meaning.`;

const JSON_SHAPES = `## JSON output (parse stdout; never scrape tables)

- Lists (\`issue list\`, \`issue events\`, \`trace list\`): \`{"data": [...], "hasMore", "nextCursor"?}\`, also when
  empty; \`-c last\` continues after the previous page. Org-wide issue lists add \`alias\`; a failed project adds
  \`errors: [{project, message}]\`.
- Issue: \`id\`, \`shortId\`, \`title\`, \`culprit\`, \`permalink\`, \`level\`, \`status\`, \`isUnhandled\`, \`count\`
  (number), \`userCount\`, \`firstSeen\`, \`lastSeen\`, \`project\` \`{slug, name, id?, platform?}\`. \`issue view\` adds
  \`metadata\`, \`tags\` \`[{key, value}]\` and \`latestEvent\` \`{eventID, message, platform, timestamp}\`.
- \`issue explain\`: \`{issueId, analysis: {summary, rootCause, suggestedFix, affectedCode}}\`; \`issue plan\`:
  \`{issueId, plan: {steps: [{step, action, code, file, line}], confidence}}\`.
- \`trace view\`: \`{traceId, org, spanCount, errorCount, durationMs, projects, roots: [Span]}\`, spans nested in
  \`children\`. \`event view\`: the event. \`org list\`/\`project list\`: arrays of the service's objects.
- Changes (\`issue resolve|unresolve|archive|assign\`): \`{changed: [Issue], failed: [{issue, error}], dryRun}\`.
- Shape any document: \`--jq '.data[].shortId'\` (real jq; strings raw, one per line), \`--fields shortId,project.slug\` (dot paths, per item of \`data\`); \`--format md
  --max-chars 4000\` for size-bound markdown (least useful parts dropped first, a last line says what);
  \`--max-chars\` with \`--json\` trims arrays and adds \`"truncated"\`.
- Errors: with \`--json\` or \`TRACKER_OUTPUT=json\`, one object on stderr \`{"error": {class, reason?, code,
  message, hint?, status?, detail?}}\`, stdout empty; otherwise \`Error: <message>\` on stderr.`;

function exitCodes(): string[] {
  const rows = ["## Exit codes", "", "| Code | Name | What to do |", "|---|---|---|"];
  for (const e of EXIT_CODE_TABLE) rows.push(`| ${e.code} | ${e.name} | ${cell(e.action)} |`);
  rows.push(
    "",
    "Retry only 30 (after a 429 or 5xx) and 31; fix the input for 2 and 20-23; re-authenticate for 10-12.",
  );
  return rows;
}

const ENVIRONMENT = `## Environment

\`TRACKER_AUTH_TOKEN\`, \`TRACKER_TOKEN\` (tokens), \`TRACKER_URL\` (self-hosted address), \`TRACKER_CLIENT_ID\`,
\`TRACKER_ORG\`/\`TRACKER_PROJECT\` (default target), \`TRACKER_CONFIG_DIR\`, \`TRACKER_LOG_LEVEL\`,
\`TRACKER_OUTPUT=json\` (JSON by default), \`TRACKER_CLI_NO_AUTO_REPAIR=1\`, \`TRACKER_RELEASE_URL\`,
\`TRACKER_INSTALL_DIR\`, \`NO_COLOR\`.`;

/** Renders the whole skill file. */
export function generateSkill(): string {
  const out: string[] = [HEADER, "", PREREQUISITES, "", AUTH, "", JSON_SHAPES, "", "## Global options", ""];
  out.push(
    "`--json`, `--verbose`, `--log-level error|warn|info|debug|trace`, `--jq`, `--fields`, `--format md`, `--max-chars N`, anywhere on the line; `--version`; `--help`.",
    "",
  );
  const w: Walk = { out: [], paths: new Map(), shortcuts: [] };
  walk("tracker", rootRoutes as unknown as RouteMap<CommandContext>, w);
  out.push("# Commands", "", ...w.out);
  const aliases = w.shortcuts.flatMap((s) => {
    const real = w.paths.get(s.target);
    return real ? [`- \`${s.path}\` = \`${real}\``] : [];
  });
  if (aliases.length > 0) out.push("Shortcuts:", "", ...aliases, "");
  out.push(...exitCodes(), "", ENVIRONMENT, "");
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** Writes `text` to `file`, or with `check` only compares; true when the file was current. */
function writeOrCheck(file: string, text: string, check: boolean, fix: string): boolean {
  if (!check) {
    writeFileSync(file, text);
    process.stdout.write(`Wrote ${file}\n`);
    return true;
  }
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {
    // Missing counts as stale.
  }
  if (current !== text) {
    process.stderr.write(`${file} is stale: run \`${fix}\` and commit the result.\n`);
    return false;
  }
  process.stdout.write(`${file} is up to date.\n`);
  return true;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf("--file");
  const file = fileAt >= 0 && args[fileAt + 1] ? resolve(args[fileAt + 1] as string) : SKILL_PATH;
  const check = args.includes("--check");
  let ok = writeOrCheck(file, generateSkill(), check, "bun run generate:skill");
  // The root help is generated beside the skill file (not when another skill file is named).
  if (fileAt < 0)
    ok =
      writeOrCheck(
        resolve(ROOT, ROOT_HELP_MODULE),
        await rootHelpModule(),
        check,
        "bun run generate:skill",
      ) && ok;
  if (!ok) process.exit(1);
}
