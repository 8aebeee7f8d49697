/** Help as people read it: global flags once, placeholders, ENVIRONMENT, wrapped to the width. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { wrapLine } from "../../src/lib/help-format.ts";
import { runCli, runInProcess } from "../helpers/cli.ts";

const SRC = resolve(import.meta.dir, "../../src");
const width = (text: string) => Math.max(...text.split("\n").map((l) => Bun.stringWidth(l)));

/** Every TRACKER_* variable the source reads (build-time defines excluded). */
function variablesRead(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".ts")) {
        for (const m of readFileSync(path, "utf8").matchAll(/\bTRACKER_[A-Z_]+\b/g)) names.add(m[0]);
      }
    }
  };
  walk(SRC);
  return [...names].filter((n) => !n.startsWith("TRACKER_BUILD_") && n !== "TRACKER_RELEASE_BASE_URL").sort();
}

describe("root help", () => {
  test("GLOBAL FLAGS once, and an ENVIRONMENT section naming every TRACKER_* variable", async () => {
    const r = await runCli(["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const env = r.stdout.slice(r.stdout.indexOf("\nENVIRONMENT\n"));
    expect(env.length).toBeGreaterThan(20);
    for (const name of variablesRead()) expect(env).toContain(name);
    expect(r.stdout.match(/^GLOBAL FLAGS$/gm)).toHaveLength(1);
    for (const flag of [
      "--json",
      "--jq <program>",
      "--fields",
      "--format md",
      "--max-chars",
      "--log-level <level>",
    ]) {
      expect(r.stdout.slice(r.stdout.indexOf("GLOBAL FLAGS"))).toContain(flag);
    }
    // The usage lines no longer repeat the global flags.
    const usage = r.stdout.slice(0, r.stdout.indexOf("\n\n"));
    expect(usage).not.toContain("--log-level");
    expect(usage).not.toContain("[--json]");
  });

  test("piped, every line fits 80 columns", async () => {
    expect(width((await runCli(["--help"])).stdout)).toBeLessThanOrEqual(80);
  });

  test("the executable's --help (the generated root help, no route map built) is the live app's text", async () => {
    const live = await runInProcess(["--help"], { env: {} });
    expect(live.stdout).toStartWith("USAGE\n");
    for (const flag of ["--help", "-h"]) {
      const child = await runCli([flag], { subprocess: true });
      expect(child.exitCode).toBe(0);
      expect(child.stderr).toBe("");
      expect(child.stdout).toBe(live.stdout);
    }
    // Generated from the live app, unwrapped: a stale copy fails here before CI's generate --check.
    const { ROOT_HELP } = await import("../../src/lib/root-help.ts");
    const { liveRootHelp } = await import("../../script/root-help.ts");
    expect(ROOT_HELP).toBe(await liveRootHelp());
  });
});

describe("command help", () => {
  test("placeholders say what a value is; globals are a section, not on the usage line", async () => {
    const r = await runCli(["issue", "list", "--help"]);
    const usage = r.stdout.split("\n\n")[0] ?? "";
    expect(usage.replace(/\s+/g, " ")).toContain(
      "tracker issue list [--fresh] [-n <count>] [-q <query>] [-s date|new|freq|user] [-t <period>] [--start <time>] [--end <time>] [-e <name>]... [-c <cursor>] [<target>]",
    );
    expect(r.stdout).toContain("\nGLOBAL FLAGS\n");
    expect(r.stdout).not.toContain("\nENVIRONMENT\n");
    expect(r.stdout).not.toMatch(/^\s+\[--json\]/m);
    expect((await runCli(["auth", "login", "--help"])).stdout).toContain("[--token <token>]");
  });

  test("wrapped at word boundaries to the terminal's width on a terminal, 80 when piped", async () => {
    const narrow = await runInProcess(["issue", "archive", "--help"], {
      isStdoutTTY: true,
      terminalWidth: 60,
    });
    expect(width(narrow.stdout)).toBeLessThanOrEqual(60);
    const piped = await runInProcess(["issue", "archive", "--help"], {
      isStdoutTTY: false,
      terminalWidth: 60,
    });
    expect(width(piped.stdout)).toBeLessThanOrEqual(80);
    expect(width(piped.stdout)).toBeGreaterThan(60);
    // No word is cut in half: the words are the same, only the line breaks moved.
    const words = (t: string) => t.split(/\s+/).filter(Boolean);
    expect(words(narrow.stdout)).toEqual(words(piped.stdout));
  });

  test("tracker help <command> is the same text", async () => {
    const a = await runCli(["help", "trace", "view"]);
    const b = await runCli(["trace", "view", "--help"]);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toStartWith("USAGE\n");
  });
});

describe("wrapLine", () => {
  test("an aligned row continues under its description column", () => {
    expect(wrapLine("  -n [--limit]  Number of results to show in the listing", 40)).toEqual([
      "  -n [--limit]  Number of results to",
      "                show in the listing",
    ]);
  });

  test("a paragraph continues at the left margin; a word longer than the line stays whole", () => {
    expect(wrapLine("one two three four", 9)).toEqual(["one two", "three", "four"]);
    expect(wrapLine("x https://example.com/a/very/long/url y", 10)).toEqual([
      "x",
      "https://example.com/a/very/long/url",
      "y",
    ]);
  });
});

describe("help topics", () => {
  test("tracker help environment names every variable and the precedence; exit-codes and query too", async () => {
    const env = await runCli(["help", "environment"]);
    expect(env.exitCode).toBe(0);
    expect(env.stderr).toBe("");
    for (const name of variablesRead()) expect(env.stdout).toContain(name);
    expect(env.stdout).toContain("PRECEDENCE");
    const codes = await runCli(["help", "exit-codes"]);
    expect(codes.exitCode).toBe(0);
    for (const code of ["  0  success", " 21  validation", " 30  api", "130  cancelled"])
      expect(codes.stdout).toContain(code);
    const query = await runCli(["help", "query"]);
    expect(query.exitCode).toBe(0);
    expect(query.stdout).toContain("assigned:[me, my_teams]");
    expect(query.stdout).toContain("tracker issue list -q");
  });

  test("root help points at the topics; a command after help is still its help", async () => {
    const root = await runCli(["--help"]);
    expect(root.stdout.replace(/\s+/g, " ")).toContain("tracker help environment");
    const cmd = await runCli(["help", "issue", "list"]);
    expect(cmd.exitCode).toBe(0);
    expect(cmd.stdout).toContain("USAGE");
  });
});

test("tracker mcp --help names every tool the server offers (one registry)", async () => {
  const { TOOLS } = await import("../../src/lib/mcp/tools.ts");
  const r = await runCli(["mcp", "--help"]);
  expect(r.exitCode).toBe(0);
  const text = r.stdout.replace(/\s+/g, " ");
  const missing = TOOLS.map((t) => t.name).filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
  expect(missing).toEqual([]);
  expect(TOOLS.length).toBeGreaterThan(15);
  // The names help loads at start-up (without the registry) are the registry's, split by writes.
  const { READ_TOOL_NAMES, WRITE_TOOL_NAMES } = await import("../../src/lib/mcp/tool-names.ts");
  expect<string[]>([...READ_TOOL_NAMES]).toEqual(TOOLS.filter((t) => !t.writes).map((t) => t.name));
  expect<string[]>([...WRITE_TOOL_NAMES]).toEqual(TOOLS.filter((t) => t.writes).map((t) => t.name));
});

test("help environment at 80 columns: the precedence block wraps under its text, nothing past column 80", async () => {
  const r = await runCli(["help", "environment"]);
  expect(r.exitCode).toBe(0);
  const lines = r.stdout.split("\n");
  for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(80);
  const block = lines.slice(lines.indexOf("PRECEDENCE") + 1).filter((l) => l !== "");
  expect(block.length).toBeGreaterThan(5);
  for (const l of block) expect(l).toMatch(/^ {2}(Token|Service|Target|Output|Agents): {2,}\S|^ {12}\S/);
  expect(block.find((l) => l.startsWith("  Service:"))).toBe(
    "  Service:  an org token's own URL > TRACKER_URL > SENTRY_URL > the only stored",
  );
});

test("-n means --limit wherever a command has it: no command gives -n another meaning", async () => {
  const { readdirSync, readFileSync } = await import("node:fs");
  const dir = resolve(import.meta.dir, "../../src/commands");
  const offenders: string[] = [];
  for (const noun of readdirSync(dir)) {
    for (const file of readdirSync(join(dir, noun)).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(join(dir, noun, file), "utf8");
      for (const m of text.matchAll(/\bn: "([A-Za-z]+)"/g))
        if (m[1] !== "limit") offenders.push(`${noun}/${file}: -n → ${m[1]}`);
    }
  }
  expect(offenders).toEqual([]);
});
