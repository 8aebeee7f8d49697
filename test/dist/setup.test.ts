import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { formatSetupReport } from "../../src/lib/setup/report.ts";
import { runSetup, type SetupOptions } from "../../src/lib/setup/run.ts";
import { SKILL_CONTENT } from "../../src/lib/setup/skill.ts";
import { cliCommand, runCli } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { cleanupScratch, scratchDir } from "./helpers/binaries.ts";

afterAll(cleanupScratch);

const COMMENT = "# Added by tracker (tracker cli setup)";

function setupIn(
  home: string,
  env: Record<string, string | undefined>,
  opts: Partial<SetupOptions> = {},
  configDir?: string,
) {
  const t = createTestContext({ homeDir: home, configDir, env: { PATH: "/usr/bin:/bin", ...env } });
  const installDir = join(home, ".tracker/bin");
  const report = runSetup(t.ctx, {
    binaryPath: join(installDir, "tracker"),
    installDir,
    modifyPath: true,
    agentSkills: true,
    method: undefined,
    compiled: true,
    ...opts,
  });
  return { ...t, report, installDir, lines: formatSetupReport(t.ctx, report) };
}

test("bash, zsh and fish startup files each get the PATH line once", () => {
  const home = scratchDir("tracker-setup-");
  writeFileSync(join(home, ".zshrc"), "alias ll='ls -l'"); // no trailing newline
  mkdirSync(join(home, ".config/fish"), { recursive: true });
  writeFileSync(join(home, ".config/fish/config.fish"), "set -g fish_greeting\n");
  const first = setupIn(home, { SHELL: "/bin/bash" });
  const dir = first.installDir;
  expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe(`${COMMENT}\nexport PATH="${dir}:$PATH"\n`);
  expect(readFileSync(join(home, ".zshrc"), "utf8")).toBe(
    `alias ll='ls -l'\n\n${COMMENT}\nexport PATH="${dir}:$PATH"\n`,
  );
  expect(readFileSync(join(home, ".config/fish/config.fish"), "utf8")).toBe(
    `set -g fish_greeting\n\n${COMMENT}\nset -gx PATH "${dir}" $PATH\n`,
  );
  expect(first.lines.slice(0, 3)).toEqual([
    "PATH: created ~/.bashrc to add ~/.tracker/bin",
    "PATH: updated ~/.zshrc to add ~/.tracker/bin",
    "PATH: updated ~/.config/fish/config.fish to add ~/.tracker/bin",
  ]);
  expect(first.report.path.status).toBe("updated");

  const snapshot = [".bashrc", ".zshrc", ".config/fish/config.fish"].map((f) =>
    readFileSync(join(home, f), "utf8"),
  );
  const second = setupIn(home, { SHELL: "/bin/bash" });
  expect(second.report.path.status).toBe("unchanged");
  expect(second.lines.slice(0, 3)).toEqual([
    "PATH: ~/.bashrc already adds ~/.tracker/bin",
    "PATH: ~/.zshrc already adds ~/.tracker/bin",
    "PATH: ~/.config/fish/config.fish already adds ~/.tracker/bin",
  ]);
  expect(
    [".bashrc", ".zshrc", ".config/fish/config.fish"].map((f) => readFileSync(join(home, f), "utf8")),
  ).toEqual(snapshot);
});

test("only the login shell's file is created; ZDOTDIR and symlinked rc files are respected", () => {
  const home = scratchDir("tracker-setup-");
  const dotfiles = join(home, "dotfiles");
  mkdirSync(join(home, "zdot"), { recursive: true });
  mkdirSync(dotfiles);
  writeFileSync(join(dotfiles, "zshrc"), "# mine\n");
  symlinkSync(join(dotfiles, "zshrc"), join(home, "zdot/.zshrc"));
  const r = setupIn(home, { SHELL: "/usr/bin/zsh", ZDOTDIR: join(home, "zdot") });
  expect(existsSync(join(home, ".bashrc"))).toBe(false);
  expect(r.report.path.files.map((f) => [f.shell, f.change])).toEqual([["zsh", "added"]]);
  // Written through the link: the dotfile manager's file changed, the link is still a link.
  expect(readFileSync(join(dotfiles, "zshrc"), "utf8")).toContain(`export PATH="${r.installDir}:$PATH"`);
  expect(statSync(join(dotfiles, "zshrc")).isFile()).toBe(true);
});

test("--no-modify-path, a directory already on PATH, and package-manager installs leave rc files alone", () => {
  const home = scratchDir("tracker-setup-");
  writeFileSync(join(home, ".bashrc"), "# existing\n");
  const skipped = setupIn(home, { SHELL: "/bin/bash" }, { modifyPath: false });
  expect(skipped.lines[0]).toBe("PATH: not changed (--no-modify-path)");
  const dir = join(home, ".tracker/bin");
  const onPath = setupIn(home, { SHELL: "/bin/bash", PATH: `/usr/bin:${dir}` });
  expect(onPath.lines[0]).toBe("PATH: ~/.tracker/bin is already on PATH");
  const brew = setupIn(home, { SHELL: "/bin/bash" }, { method: "brew" });
  expect(brew.lines[0]).toBe("PATH: not changed (brew puts tracker on PATH itself)");
  const npmDir = join(home, "prefix/lib/node_modules/@tracker-cli/linux-x64/bin");
  const npm = setupIn(
    home,
    { SHELL: "/bin/bash" },
    { binaryPath: join(npmDir, "tracker"), installDir: npmDir },
  );
  expect(npm.lines[0]).toBe("PATH: not changed (npm puts tracker on PATH itself)");
  expect(npm.report.method).toBeNull();
  const source = setupIn(home, { SHELL: "/bin/bash" }, { compiled: false, method: "curl" });
  expect(source.lines[0]).toBe("PATH: not changed (running from source, not an installed binary)");
  expect(source.report.method).toBeNull();
  expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# existing\n");
});

test("GitHub Actions: the directory is appended to $GITHUB_PATH once", () => {
  const home = scratchDir("tracker-setup-");
  const ghPath = join(home, "github_path");
  writeFileSync(ghPath, "/opt/other\n");
  const env = { SHELL: "/bin/bash", GITHUB_ACTIONS: "true", GITHUB_PATH: ghPath };
  setupIn(home, env);
  const r = setupIn(home, env);
  expect(readFileSync(ghPath, "utf8")).toBe(`/opt/other\n${r.installDir}\n`);
});

test("skill file: own copy always, agent dirs only when their root exists; second run changes nothing", () => {
  const home = scratchDir("tracker-setup-");
  mkdirSync(join(home, ".claude"));
  const first = setupIn(home, { SHELL: "/bin/bash" }, { method: "curl" });
  const own = join(first.ctx.configDir, "skills/tracker-cli/SKILL.md");
  const claude = join(home, ".claude/skills/tracker-cli/SKILL.md");
  expect(first.report.skills.map((s) => [s.label, s.status, s.path])).toEqual([
    ["tracker", "installed", own],
    ["claude", "installed", claude],
    ["agents", "skipped", join(home, ".agents/skills/tracker-cli/SKILL.md")],
  ]);
  expect(first.lines.slice(-4)).toEqual([
    `Skill: installed ${own}`,
    "Skill: installed ~/.claude/skills/tracker-cli/SKILL.md",
    `Skill: skipped ~/.agents/skills/tracker-cli/SKILL.md (${join(home, ".agents")} does not exist)`,
    "Install method: curl (recorded)",
  ]);
  expect(readFileSync(claude, "utf8")).toBe(SKILL_CONTENT);
  expect(statSync(join(home, ".claude/skills/tracker-cli")).mode & 0o777).toBe(0o755);
  expect(existsSync(join(home, ".agents"))).toBe(false);
  const db = new Database(join(first.ctx.configDir, "tracker.db"), { readonly: true });
  expect(db.query("SELECT method, path FROM install_info").get()).toEqual({
    method: "curl",
    path: join(first.installDir, "tracker"),
  });
  db.close();

  mkdirSync(join(home, ".agents"));
  writeFileSync(claude, "outdated");
  const second = setupIn(home, { SHELL: "/bin/bash" }, {}, first.ctx.configDir);
  expect(second.report.skills.map((s) => [s.label, s.status])).toEqual([
    ["tracker", "unchanged"],
    ["claude", "updated"],
    ["agents", "installed"],
  ]);
  const unchanged = setupIn(home, { SHELL: "/bin/bash" }, {}, first.ctx.configDir);
  expect(unchanged.report.skills.map((s) => s.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
  const third = setupIn(home, { SHELL: "/bin/bash" }, { agentSkills: false });
  expect(third.report.skills.map((s) => s.label)).toEqual(["tracker"]);
});

test("a skill root that is a file is skipped with a reason, not an error", () => {
  const home = scratchDir("tracker-setup-");
  writeFileSync(join(home, ".agents"), "not a dir");
  const r = setupIn(home, { SHELL: "/bin/bash" });
  expect(r.report.skills[2]).toEqual({
    label: "agents",
    path: join(home, ".agents/skills/tracker-cli/SKILL.md"),
    status: "skipped",
    reason: `${join(home, ".agents")} is not writable`,
  });
});

test("e2e: `cli setup --json` from source prints one JSON document and skips PATH", async () => {
  const home = scratchDir("tracker-setup-");
  const r = await runCli(["cli", "setup", "--json"], { env: { HOME: home, SHELL: "/bin/bash" } });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe("");
  const doc = JSON.parse(r.stdout) as {
    path: { status: string; reason: string };
    skills: { status: string }[];
  };
  expect(doc.path).toMatchObject({
    status: "skipped",
    reason: "running from source, not an installed binary",
  });
  expect(doc.skills.map((s) => s.status)).toEqual(["installed", "skipped", "skipped"]);
  expect(existsSync(join(home, ".bashrc"))).toBe(false);
});

test("e2e: `cli setup` under umask 000 makes the config dir 0700 (it will hold the database), the skill readable", async () => {
  const home = scratchDir("tracker-setup-");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
  };
  const proc = Bun.spawn(["sh", "-c", 'umask 000; exec "$@"', "sh", ...cliCommand(), "cli", "setup"], {
    cwd: home,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(0);
  const configDir = join(home, ".config/tracker-cli");
  expect(statSync(configDir).mode & 0o777).toBe(0o700);
  expect(statSync(join(configDir, "skills/tracker-cli/SKILL.md")).mode & 0o777).toBe(0o644);
  // A looser config dir left by an earlier version is tightened by the next setup.
  chmodSync(configDir, 0o755);
  const again = await runCli(["cli", "setup"], { configDir, env: { HOME: home, SHELL: "/bin/bash" } });
  expect(again.exitCode).toBe(0);
  expect(statSync(configDir).mode & 0o777).toBe(0o700);
});
