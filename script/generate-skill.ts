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

function descriptionOf(full: string | undefined): string | undefined {
  if (!full) return undefined;
  const at = full.indexOf("\n\nExamples:");
  const text = (at >= 0 ? full.slice(0, at) : full).trim();
  return text.length > 0 ? text : undefined;
}

function flagType(f: FlagSpec): string {
  if (f.kind === "boolean") return "boolean";
  if (f.kind === "counter") return "counter";
  if (f.kind === "enum") return (f.values ?? []).join(" \\| ");
  return "value";
}

function flagDefault(f: FlagSpec): string {
  if (f.default !== undefined) return `\`${String(f.default)}\``;
  if (f.kind === "boolean") return "`false`";
  return "none";
}

function aliasesFor(aliases: Record<string, string> | undefined, flag: string): string {
  const found = Object.entries(aliases ?? {})
    .filter(([, target]) => target === flag)
    .map(([a]) => `-${a}`)
    .sort();
  return found.join(", ");
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

function usageLine(path: string, cmd: Command<CommandContext>): string {
  const args = positionalsOf(cmd).map((p, i) => {
    const name = p.placeholder ?? `arg${i + 1}`;
    return p.optional || p.default !== undefined ? `[${name}]` : `<${name}>`;
  });
  const flags = Object.keys((cmd.parameters.flags ?? {}) as Record<string, FlagSpec>).filter(
    (f) => !GLOBAL_FLAGS.has(f),
  );
  return [path, ...args, flags.length > 0 ? "[flags]" : ""].filter(Boolean).join(" ");
}

function renderCommand(path: string, cmd: Command<CommandContext>, out: string[]): void {
  out.push(`### \`${path}\``, "", cmd.brief, "");
  const desc = descriptionOf(cmd.fullDescription);
  if (desc) out.push(desc, "");
  out.push("```", usageLine(path, cmd), "```", "");
  const positionals = positionalsOf(cmd);
  if (positionals.length > 0) {
    out.push("| Argument | Required | Description |", "|---|---|---|");
    for (const [i, p] of positionals.entries()) {
      const req = p.optional || p.default !== undefined ? "no" : "yes";
      out.push(`| \`${p.placeholder ?? `arg${i + 1}`}\` | ${req} | ${cell(p.brief)} |`);
    }
    out.push("");
  }
  const flags = (cmd.parameters.flags ?? {}) as Record<string, FlagSpec>;
  const aliases = cmd.parameters.aliases as Record<string, string> | undefined;
  const own = Object.keys(flags).filter((f) => !GLOBAL_FLAGS.has(f) && !flags[f]?.hidden);
  if (own.length > 0) {
    out.push("| Flag | Alias | Type | Default | Description |", "|---|---|---|---|---|");
    for (const name of own) {
      const f = flags[name] as FlagSpec;
      const negated =
        f.kind === "boolean" && f.withNegated && f.default === true ? ` (\`--no-${kebab(name)}\`)` : "";
      out.push(
        `| \`--${kebab(name)}\`${negated} | ${aliasesFor(aliases, name)} | ${flagType(f)} | ${flagDefault(f)} | ${cell(f.brief)} |`,
      );
    }
    out.push("");
  }
  const examples = examplesOf(cmd.fullDescription);
  if (examples.length > 0) out.push("Examples:", "", "```sh", ...examples, "```", "");
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
    if (isRouteMap(target)) {
      out.push(`## \`${path}\`: ${target.brief}`, "");
      walk(path, target, w);
    } else {
      if (prefix === "tracker") out.push(`## \`${path}\`: ${target.brief}`, "");
      renderCommand(path, target, out);
    }
  }
}

function globalFlagRows(): string[] {
  const anyCommand = rootRoutes.getRoutingTargetForInput("upgrade") as Command<CommandContext>;
  const flags = anyCommand.parameters.flags as Record<string, FlagSpec>;
  const rows = ["| Option | Type | Default | Description |", "|---|---|---|---|"];
  for (const name of [...GLOBAL_FLAGS]) {
    const f = flags[name];
    if (!f) continue;
    const def = name === "logLevel" ? "`info`" : flagDefault(f);
    rows.push(`| \`--${kebab(name)}\` | ${flagType(f)} | ${def} | ${cell(f.brief)} |`);
  }
  rows.push("| `--version` | boolean | | Print the CLI version and exit |");
  rows.push("| `--help`, `-h` | boolean | | Help for any command or group |");
  return rows;
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

const PREREQUISITES = `## Prerequisites

Install (any one):

\`\`\`sh
curl -fsSL https://github.com/tracker-cli/tracker/releases/latest/download/install.sh | sh
brew install ${BREW_FORMULA}
npm install -g ${NPM_PACKAGE}
\`\`\`

Check with \`tracker --version\`. Authenticate once:

\`\`\`sh
tracker auth login            # OAuth device flow (opens a URL and shows a code)
tracker auth login --token    # paste a token (self-hosted before 26.1.0), or pipe it on stdin
tracker auth status           # who am I, where the token and context come from
\`\`\``;

const AUTH = `## Authentication patterns

- Interactive machines: \`tracker auth login\` once; the token is stored in the local database
  (\`~/.config/tracker-cli/tracker.db\`, mode 600) and refreshed automatically.
- CI and agents without a browser: set \`TRACKER_AUTH_TOKEN\` in the environment (a user auth token, or an
  org auth token with the scopes below). It overrides \`TRACKER_TOKEN\` and any stored login. Never
  commit it, never pass it as a command-line argument, never print it.
- Scopes: \`org:read\` (organizations, projects), \`project:read\` (project details), \`event:read\`
  (issues, events, traces), \`event:write\` (optional). A 403 (exit 30) usually means a missing scope.
- Self-hosted: \`TRACKER_URL=https://sentry.example.com\`; OAuth there also needs \`TRACKER_CLIENT_ID\`.

## Choosing the organization and project

Commands that need a target accept \`<org>/<project>\`, \`<project>\` (searched across organizations),
\`<org>/\` (\`issue list\` only: the whole organization) or nothing. When omitted, the target comes from
\`TRACKER_ORG\`/\`TRACKER_PROJECT\`, then \`tracker defaults set <org>[/<project>]\`, then a DSN found in
\`TRACKER_DSN\`, \`.env\` files or source code under the working directory. In scripts, pass the target
explicitly. Slugs are case-sensitive.`;

const JSON_SHAPES = `## JSON output

Use \`--json\` and parse stdout (for example with \`jq\`); never scrape the human tables. The document is
compact (one line) when stdout is piped and indented on a terminal.

- \`issue list --json\`: \`{"data": [Issue, ...], "hasMore": boolean, "nextCursor"?: string}\` in every mode,
  also when empty; pass \`-c last\` to continue after the previous page (remembered per target, sort, query
  and period). Org-wide (\`<org>/\`) and multi-project listings add \`alias\` to each issue, and
  \`errors: [{project, message}]\` when a project could not be listed.
- Issue: \`id\` (string), \`shortId\` (string, usable as the issue argument), \`title\`, \`culprit\`,
  \`permalink\`, \`level\`, \`status\`, \`isUnhandled\`, \`count\` (number: events in the period),
  \`userCount\` (number), \`firstSeen\`, \`lastSeen\` (ISO 8601), \`project\` (\`{slug, name, id?, platform?}\`).
- \`issue view --json\`: Issue plus \`metadata\` (\`{type, value, filename, function}\`), \`tags\`
  (\`[{key, value}]\`, from the latest event) and \`latestEvent\` (\`{eventID, message, platform, timestamp}\`,
  timestamp ISO 8601 with milliseconds).
- \`issue explain --json\`: \`{"issueId": string, "analysis": {"summary", "rootCause", "suggestedFix", "affectedCode"}}\`.
- \`issue plan --json\`: \`{"issueId": string, "plan": {"steps": [{"step", "action", "code", "file", "line"}], "confidence": number}}\`
  (\`step\` from 1; \`line\` is 0 when the service gives none; \`confidence\` in 0..1).
- \`trace list --json\`: \`{"data": [Trace, ...], "hasMore": boolean, "nextCursor"?: string}\`; Trace:
  \`traceId\` (32 hex), \`transaction\`, \`durationMs\`, \`timestamp\`, \`project\`, plus the service's columns.
- \`trace view --json\`: \`{traceId, org, spanCount, errorCount, durationMs, projects, roots: [Span]}\`; Span:
  \`{spanId, parentSpanId, op, description, project, startTimestamp, timestamp, durationMs, selfTimeMs,
  isTransaction, orphan, errors, children: [Span]}\`.
- \`org list --json\` and \`project list --json\`: arrays of the service's organization / project objects.
- \`auth status --json\`: one object with \`source\` (\`TRACKER_AUTH_TOKEN\`, \`TRACKER_TOKEN\` or \`stored\`),
  token kind, a redacted token, expiry, user, organizations, defaults and \`dsn\`.
- \`issue resolve|unresolve|archive|assign --json\`: \`{"changed": [Issue], "failed": [{"issue", "error"}], "dryRun"}\`;
  \`issue events --json\`: \`{"data": [Event], "hasMore", "nextCursor"?}\`; \`event view --json\`: the event.
- Take only what you need: \`--fields shortId,title,project.slug\` (dot paths; for lists they apply to each
  item of \`data\`; an unknown field is exit 21 listing the valid ones). Size-bound text for reading:
  \`--format md --max-chars 4000\` (markdown; least useful parts dropped first, a last line says what). With
  \`--json\`, \`--max-chars\` trims arrays and adds \`"truncated": {path: count}\`.
- Errors: with \`--json\` (or \`TRACKER_OUTPUT=json\`) a failure prints one JSON object on stderr,
  \`{"error": {"class", "reason"?, "code", "message", "hint"?, "status"?, "detail"?}}\`, stdout stays empty;
  \`code\` is the exit code (table below). Without JSON mode: \`Error: <message>\` on stderr.
- Changing issues: preview with \`--dry-run\`; \`--query\` bulk changes need \`--yes\` without a terminal.

\`\`\`sh
tracker issue list acme/web --json | jq -r '.data[] | "\\(.shortId) \\(.title)"'
tracker issue view WEB-4Y --json | jq '.latestEvent'
\`\`\``;

function exitCodes(): string[] {
  const rows = [
    "## Exit codes and what to do",
    "",
    "| Code | Name | When | What to do |",
    "|---|---|---|---|",
  ];
  for (const e of EXIT_CODE_TABLE)
    rows.push(`| ${e.code} | ${e.name} | ${cell(e.when)} | ${cell(e.action)} |`);
  rows.push(
    "",
    "Error classes print as `Error: <message>` and may add an indented API detail, a `Suggestion:` line,",
    "a usage example (missing organization/project) or alternatives (unresolvable identifier). Retry only",
    "codes 30 (after a 429 or 5xx) and 31; fix the input for 2, 20-23; re-authenticate for 10-12.",
  );
  return rows;
}

const ENVIRONMENT = `## Environment variables

| Variable | Meaning |
|---|---|
| \`TRACKER_AUTH_TOKEN\` | API token; wins over \`TRACKER_TOKEN\` and stored logins (use in CI) |
| \`TRACKER_TOKEN\` | lower-precedence token |
| \`TRACKER_URL\` | self-hosted service address |
| \`TRACKER_CLIENT_ID\` | OAuth client ID for self-hosted device-flow login |
| \`TRACKER_ORG\`, \`TRACKER_PROJECT\` | default organization and project |
| \`TRACKER_CONFIG_DIR\` | local state directory (default \`~/.config/tracker-cli/\`) |
| \`TRACKER_LOG_LEVEL\` | \`error\`, \`warn\`, \`info\`, \`debug\` or \`trace\` |
| \`TRACKER_OUTPUT\` | \`json\` makes JSON output (and JSON errors) the default |
| \`TRACKER_CLI_NO_AUTO_REPAIR\` | \`1\` disables automatic local schema repair |
| \`TRACKER_RELEASE_URL\` | release mirror used by \`tracker upgrade\` and install.sh |
| \`TRACKER_INSTALL_DIR\` | install directory of install.sh (default \`~/.tracker/bin\`) |`;

/** Renders the whole skill file. */
export function generateSkill(): string {
  const out: string[] = [HEADER, "", PREREQUISITES, "", "## Global options", "", ...globalFlagRows(), ""];
  out.push("Global options work before or after the command words (`tracker --json issue list`).", "");
  const w: Walk = { out: [], paths: new Map(), shortcuts: [] };
  walk("tracker", rootRoutes as unknown as RouteMap<CommandContext>, w);
  out.push("# Commands", "", ...w.out);
  const aliases = w.shortcuts.flatMap((s) => {
    const real = w.paths.get(s.target);
    return real ? [`- \`${s.path}\` = \`${real}\``] : [];
  });
  if (aliases.length > 0) out.push("Shortcuts:", "", ...aliases, "");
  out.push(JSON_SHAPES, "", AUTH, "", ...exitCodes(), "", ENVIRONMENT, "");
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf("--file");
  const file = fileAt >= 0 && args[fileAt + 1] ? resolve(args[fileAt + 1] as string) : SKILL_PATH;
  const text = generateSkill();
  if (args.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {
      // Missing counts as stale.
    }
    if (current !== text) {
      process.stderr.write(`${file} is stale: run \`bun run generate:skill\` and commit the result.\n`);
      process.exit(1);
    }
    process.stdout.write(`${file} is up to date.\n`);
  } else {
    writeFileSync(file, text);
    process.stdout.write(`Wrote ${file}\n`);
  }
}
