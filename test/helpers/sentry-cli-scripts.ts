/**
 * Runs the sentry-cli CI scripts of test/fixtures/sentry-cli-scripts with tracker in sentry-cli's
 * place: a `sentry-cli` link to the entry point (or the compiled binary under TRACKER_TEST_BINARY)
 * in a temp dir first on PATH, the commands extracted from the YAML/JSON as the CI system would
 * run them, bash -e, a clean environment.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tempDir } from "./cli.ts";

const ROOT = resolve(import.meta.dir, "../..");
/** The fixture directory. */
export const SCRIPTS_DIR = join(ROOT, "test/fixtures/sentry-cli-scripts");

/** What tracker is linked as sentry-cli: the compiled binary under test, else src/bin.ts (it has a #! line). */
export function sentryCliTarget(): string {
  const bin = process.env.TRACKER_TEST_BINARY;
  return bin ? resolve(ROOT, bin) : join(ROOT, "src/bin.ts");
}

/** A temp dir holding only a `sentry-cli` link to tracker. */
export function sentryCliBinDir(): string {
  const dir = tempDir("tracker-sentry-cli-bin-");
  symlinkSync(sentryCliTarget(), join(dir, "sentry-cli"));
  return dir;
}

/**
 * The shell commands a fixture runs: a .sh file as it is; the `run: |` blocks (GitHub Actions)
 * and `script:` lists (GitLab) of a .yml; the named `scripts` of a package.json.
 */
export function scriptOf(file: string, npmScripts: readonly string[] = []): string {
  const text = readFileSync(join(SCRIPTS_DIR, file), "utf8");
  if (file.endsWith(".sh")) return text;
  if (file.endsWith(".json")) {
    const pkg = JSON.parse(text) as { scripts: Record<string, string> };
    return npmScripts.map((s) => pkg.scripts[s]).join("\n");
  }
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const run = /^(\s*)(?:- )?run: \|\s*$/.exec(line);
    const script = /^(\s*)script:\s*$/.exec(line);
    if (!run && !script) continue;
    const indent = ((run ?? script) as RegExpExecArray)[1]?.length ?? 0;
    for (i++; i < lines.length; i++) {
      const next = lines[i] as string;
      const depth = next.length - next.trimStart().length;
      if (next.trim() !== "" && depth <= indent) break;
      if (run) out.push(next.trim());
      else {
        const item = /^\s*- (.*)$/.exec(next);
        if (item) out.push(item[1] as string);
      }
    }
    i--;
  }
  return out.join("\n");
}

/** Result of one script run. */
export interface ScriptRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  cwd: string;
}

/** Runs a fixture's commands with bash -e in `cwd`, sentry-cli on PATH, and only `env` (plus PATH, HOME). */
export async function runScript(
  file: string,
  env: Record<string, string>,
  opts: { cwd?: string; npmScripts?: readonly string[] } = {},
): Promise<ScriptRun> {
  const cwd = opts.cwd ?? tempDir("tracker-ci-");
  const home = tempDir("tracker-home-");
  mkdirSync(join(home, ".config"), { recursive: true });
  const script = join(tempDir("tracker-script-"), "ci.sh");
  writeFileSync(script, scriptOf(file, opts.npmScripts));
  const path = [sentryCliBinDir(), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  const proc = Bun.spawn(["bash", "-e", script], {
    cwd,
    env: { PATH: path, HOME: home, LANG: "C.UTF-8", TRACKER_CONFIG_DIR: join(home, "tracker"), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill(), 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr, cwd };
}
