import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const complete = (words: string[], configDir: string) =>
  runCli(["__complete", "--", ...words], { api, token: USER_TOKEN, configDir });
const lines = (s: string) => s.split("\n").filter(Boolean);

/** Server data that is shell code: each writes a file when evaluated (the `:>` ones even upper-cased). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
const HOSTILE_PROJECT = "web$(touch${IFS}pwned-project)";
const HOSTILE_ORG = "evil`:>PWNED-ORG`";
const HOSTILE_REF = "acme/WEB-1$(:>PWNED-REF)";

/** A config dir whose cache holds the seeded projects and issue, plus hostile slugs and an issue ref. */
async function hostileCache(): Promise<string> {
  const dir = tempDir("tracker-cfg-");
  await runCli(["project", "list", "acme"], { api, token: USER_TOKEN, configDir: dir });
  await runCli(["issue", "view", "acme/WEB-4Y"], { api, token: USER_TOKEN, configDir: dir });
  api.reset();
  const db = new Database(join(dir, "tracker.db"));
  const { base_url } = db.query("SELECT base_url FROM project_cache LIMIT 1").get() as { base_url: string };
  db.run("INSERT INTO project_cache (base_url, org, project) VALUES (?, 'acme', ?)", [
    base_url,
    HOSTILE_PROJECT,
  ]);
  db.run("INSERT INTO project_cache (base_url, org, project) VALUES (?, 'acme', 'a/b c')", [base_url]);
  db.run("INSERT INTO org_regions (base_url, slug, region_url) VALUES (?, ?, 'x')", [base_url, HOSTILE_ORG]);
  db.run("INSERT INTO org_regions (base_url, slug, region_url) VALUES (?, 'globex', 'x')", [base_url]);
  for (const ref of [HOSTILE_REF, "WEB-$(:>PWNED)", "acme/WEB 2"]) {
    db.run(
      "INSERT INTO issue_refs (base_url, ref, org, issue_id, updated_at) VALUES (?, ?, 'acme', '1', ?)",
      [base_url, ref, Date.now()],
    );
  }
  db.close();
  return dir;
}

/** A dir with an executable `tracker` in it: `body` as a shell script, or (default) this checkout's CLI. */
function trackerOnPath(body?: string): string {
  const dir = tempDir("tracker-compl-");
  const run = cliCommand()
    .map((p) => `'${p}'`)
    .join(" ");
  writeFileSync(join(dir, "tracker"), `#!/bin/sh\n${body ?? `exec ${run} "$@"`}\n`);
  chmodSync(join(dir, "tracker"), 0o755);
  return dir;
}

/** Runs `code` in `shell` after sourcing the shell's completion script, in `bin` (also HOME and cwd), against the fake API's cache. */
async function inShell(
  shell: "bash" | "zsh" | "fish",
  bin: string,
  code: string,
  configDir = tempDir("tracker-cfg-"),
) {
  const file = join(bin, `tracker.${shell}`);
  writeFileSync(file, (await runCli(["completion", shell])).stdout);
  const pre = shell === "zsh" ? "compdef() { :; }; " : "";
  const r = Bun.spawnSync([shell, "-c", `${pre}source '${file}'; ${code}`], {
    cwd: bin,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: bin,
      TRACKER_CONFIG_DIR: configDir,
      TRACKER_URL: api.url,
    },
  });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
}

/** bash: completes `words` (the last one being typed) and prints COMPREPLY, one entry a line. */
const bashComplete = (words: string[]) =>
  `COMP_WORDS=(tracker ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; _tracker_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;

describe("completion answers", () => {
  test("command words, flags and enum values", async () => {
    const dir = tempDir("tracker-cfg-");
    expect(lines((await complete(["is"], dir)).stdout)).toEqual(["issue"]);
    expect(lines((await complete(["issue", "re"], dir)).stdout)).toEqual(["resolve"]);
    expect(lines((await complete(["issue", "list", "--so"], dir)).stdout)).toEqual(["--sort"]);
    expect(lines((await complete(["issue", "list", "--sort", ""], dir)).stdout)).toEqual([
      "date",
      "new",
      "freq",
      "user",
    ]);
    expect(lines((await complete(["trace", "list", "--log-level", "d"], dir)).stdout)).toEqual(["debug"]);
    expect(api.requests).toEqual([]);
  });

  test("enum values after a short flag; nothing after a short flag that takes a free value", async () => {
    const dir = tempDir("tracker-cfg-");
    expect(lines((await complete(["issue", "list", "-s", ""], dir)).stdout)).toEqual([
      "date",
      "new",
      "freq",
      "user",
    ]);
    expect(lines((await complete(["issue", "list", "-s", "f"], dir)).stdout)).toEqual(["freq"]);
    expect((await complete(["issue", "list", "-n", ""], dir)).stdout).toBe("");
    expect((await complete(["issue", "list", "-q", ""], dir)).stdout).toBe("");
    expect(api.requests).toEqual([]);
  });

  test("`completion` offers the shells", async () => {
    const dir = tempDir("tracker-cfg-");
    expect(lines((await complete(["completion", ""], dir)).stdout)).toEqual(["bash", "zsh", "fish"]);
    expect(lines((await complete(["completion", "z"], dir)).stdout)).toEqual(["zsh"]);
    expect((await complete(["completion", "bash", ""], dir)).stdout).toBe("");
  });

  test("the output flags complete for every command; --format offers json and md", async () => {
    const dir = tempDir("tracker-cfg-");
    for (const cmd of [["issue", "list"], ["org", "list"], ["completion"]]) {
      const flags = lines((await complete([...cmd, "-"], dir)).stdout);
      for (const f of ["--jq", "--fields", "--format", "--max-chars", "--json"]) expect(flags).toContain(f);
    }
    expect(lines((await complete(["issue", "list", "--format", ""], dir)).stdout)).toEqual(["json", "md"]);
    for (const f of ["--jq", "--fields", "--max-chars"]) {
      expect((await complete(["issue", "list", f, ""], dir)).stdout).toBe("");
    }
    expect(api.requests).toEqual([]);
  });

  test("slugs and recent issue IDs come from the local cache, never from the network", async () => {
    const dir = tempDir("tracker-cfg-");
    await runCli(["project", "list", "acme"], { api, token: USER_TOKEN, configDir: dir });
    await runCli(["issue", "view", "acme/WEB-4Y"], { api, token: USER_TOKEN, configDir: dir });
    api.reset();
    const targets = lines((await complete(["issue", "list", "acme/"], dir)).stdout);
    expect(targets).toContain("acme/web");
    expect(targets).toContain("acme/api");
    const issues = lines((await complete(["issue", "view", ""], dir)).stdout);
    expect(issues).toContain("acme/WEB-4Y");
    expect(api.requests).toEqual([]);
  });

  test("malformed cached slugs and issue refs (server data) are never offered", async () => {
    const dir = await hostileCache();
    const targets = lines((await complete(["issue", "list", ""], dir)).stdout);
    expect(targets).toContain("acme/web");
    expect(targets).toContain("globex/");
    expect(targets.filter((t) => !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]*$/.test(t))).toEqual([]);
    const orgs = lines((await complete(["org", "view", ""], dir)).stdout);
    expect(orgs).toContain("globex");
    expect(orgs.join("\n")).not.toContain("evil");
    const issues = lines((await complete(["issue", "view", ""], dir)).stdout);
    expect(issues).toEqual(["acme/WEB-4Y"]);
    expect(api.requests).toEqual([]);
  });
});

describe("completion scripts", () => {
  test("bash parses the script, and completing through it calls tracker __complete", async () => {
    const script = await runCli(["completion", "bash"]);
    expect(script.exitCode).toBe(0);
    const file = join(tempDir("tracker-compl-"), "tracker.bash");
    writeFileSync(file, script.stdout);
    expect(Bun.spawnSync(["bash", "-n", file]).exitCode).toBe(0);
    const r = await inShell("bash", trackerOnPath(), bashComplete(["issue", "lis"]));
    expect(r.stdout).toBe("list\n");
  });

  test("bash: a hostile cache reaches no COMPREPLY entry, and nothing runs", async () => {
    const bin = trackerOnPath();
    const cfg = await hostileCache();
    const r = await inShell(
      "bash",
      bin,
      `${bashComplete(["issue", "list", ""])}; ${bashComplete(["issue", "view", ""])}; ls`,
      cfg,
    );
    expect(r.stdout).toContain("acme/web\n");
    expect(r.stdout).toContain("acme/WEB-4Y\n");
    expect(r.stdout).not.toMatch(/pwned|PWNED|evil/);
    expect(existsSync(join(bin, "pwned-project"))).toBe(false);
  });

  test("bash quotes candidates with shell-special characters and evaluates none (case changes included)", async () => {
    const hostile = ["web$(touch pwned)", "a b", "*", "acme/WEB-1$(:>PWNED)", "`:>PWNED2`;x", "it's"];
    const bin = trackerOnPath(
      `printf '%s\\n' ${hostile.map((h) => `'${h.replace(/'/g, "'\\''")}'`).join(" ")}`,
    );
    const r = await inShell(
      "bash",
      bin,
      // What Enter does with each inserted entry: the shell parses it as one word.
      `${bashComplete(["x"])}; for e in "\${COMPREPLY[@]}"; do eval "w=$e"; printf '=%s\\n' "$w"; done`,
    );
    const out = lines(r.stdout);
    const entries = out.filter((l) => !l.startsWith("="));
    expect(entries).toHaveLength(hostile.length);
    expect(entries).not.toEqual(hostile);
    expect(out.filter((l) => l.startsWith("=")).map((l) => l.slice(1))).toEqual(hostile);
    for (const f of ["pwned", "PWNED", "PWNED2"]) expect(existsSync(join(bin, f))).toBe(false);
    const script = (await runCli(["completion", "bash"])).stdout;
    expect(script.replace(/^#.*$/gm, "")).not.toMatch(/\beval\b|,,|\^\^/);
  });

  test("bash adds no space after a lone candidate ending in /", async () => {
    const compopt = `compopt() { echo "compopt $*"; }; `;
    const slash = await inShell("bash", trackerOnPath("echo acme/"), compopt + bashComplete(["ac"]));
    expect(slash.stdout).toBe("compopt -o nospace\nacme/\n");
    const plain = await inShell("bash", trackerOnPath("echo acme/web"), compopt + bashComplete(["ac"]));
    expect(plain.stdout).toBe("acme/web\n");
  });

  test.skipIf(!Bun.which("zsh"))(
    "zsh: candidates go to compadd quoted (no -Q), no suffix after /",
    async () => {
      const dir = tempDir("tracker-compl-");
      const file = join(dir, "_tracker");
      writeFileSync(file, (await runCli(["completion", "zsh"])).stdout);
      expect(Bun.spawnSync(["zsh", "-n", file]).exitCode).toBe(0);
      const bin = trackerOnPath("printf '%s\\n' 'acme/' 'acme/web' 'a$(touch pwned) *'");
      const r = await inShell(
        "zsh",
        bin,
        `compadd() { local -a a; a=("$@"); print -r -- "compadd \${(j:|:)a}" \${(P)\${a[-1]}}; }; words=(tracker x); CURRENT=2; _tracker_complete`,
      );
      expect(r.stdout).toBe("compadd -a|found acme/web a$(touch pwned) *\ncompadd -S||-a|slashed acme/\n");
      expect(existsSync(join(bin, "pwned"))).toBe(false);
    },
  );

  test.skipIf(!Bun.which("fish"))(
    "fish completes through tracker __complete and evaluates no candidate",
    async () => {
      const r = await inShell("fish", trackerOnPath(), "complete -C 'tracker issue list -s f'");
      expect(r.stdout).toBe("freq\n");
      const bin = trackerOnPath("printf '%s\\n' 'acme/' 'a$(touch pwned)' '(touch pwned2)'");
      const h = await inShell("fish", bin, "complete -C 'tracker '");
      expect(lines(h.stdout)).toEqual(["(touch pwned2)", "a$(touch pwned)", "acme/"]);
      expect(existsSync(join(bin, "pwned"))).toBe(false);
      expect(existsSync(join(bin, "pwned2"))).toBe(false);
    },
  );

  test("fish's script names the same helper; an unknown shell is refused", async () => {
    expect((await runCli(["completion", "fish"])).stdout).toContain("tracker __complete --");
    const bad = await runCli(["completion", "powershell"]);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toBe("");
  });
});
