import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const complete = (words: string[], configDir: string) =>
  runCli(["__complete", "--", ...words], { api, token: USER_TOKEN, configDir });
const lines = (s: string) => s.split("\n").filter(Boolean);

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
});

describe("completion scripts", () => {
  test("bash parses the script, and completing through it calls tracker __complete", async () => {
    const script = await runCli(["completion", "bash"]);
    expect(script.exitCode).toBe(0);
    const dir = tempDir("tracker-compl-");
    const file = join(dir, "tracker.bash");
    writeFileSync(file, script.stdout);
    expect(Bun.spawnSync(["bash", "-n", file]).exitCode).toBe(0);
    // A `tracker` on PATH that runs this checkout (or the compiled binary under test).
    const bin = join(dir, "tracker");
    writeFileSync(
      bin,
      `#!/bin/sh\nexec ${cliCommand()
        .map((p) => `'${p}'`)
        .join(" ")} "$@"\n`,
    );
    chmodSync(bin, 0o755);
    const r = Bun.spawnSync(
      [
        "bash",
        "-c",
        `source '${file}'; COMP_WORDS=(tracker issue li); COMP_CWORD=2; _tracker_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { env: { PATH: `${dir}:${process.env.PATH}`, HOME: dir, TRACKER_CONFIG_DIR: tempDir("tracker-cfg-") } },
    );
    expect(r.stdout.toString()).toBe("list\n");
  });

  test.skipIf(!Bun.which("zsh"))("zsh parses the script", async () => {
    const dir = tempDir("tracker-compl-");
    const file = join(dir, "_tracker");
    writeFileSync(file, (await runCli(["completion", "zsh"])).stdout);
    expect(Bun.spawnSync(["zsh", "-n", file]).exitCode).toBe(0);
  });

  test("fish's script names the same helper; an unknown shell is refused", async () => {
    expect((await runCli(["completion", "fish"])).stdout).toContain("tracker __complete --");
    const bad = await runCli(["completion", "powershell"]);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toBe("");
  });
});
