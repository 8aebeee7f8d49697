/**
 * Every value tracker places into a command the user may paste goes through one quoting function
 * (src/lib/shell-quote.ts): the event's release and dist tags in `sourcemap explain`'s Fix line,
 * a server short ID in `issue events`' tip. Hostile values are fixtures served by the fake API, and
 * each printed command is parsed back by a real shell: every word is exactly the server's value.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { quoteWord } from "../../src/lib/shell-quote.ts";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENT = "0123456789abcdef0123456789abcdef";
const ABS = "https://cdn.example.com/static/js/app.min.js";
const HOSTILE = [
  "1.0$(touch pwned)",
  "`touch pwned`",
  "1.0; touch pwned",
  "1.0 | sh",
  "line1\ntouch pwned",
  'it\'s "quoted"',
  "tab\there\x1b[31m",
  "",
];

const api = useFakeApi({ afterReset: (a) => a.state.store.delete("chunks") });

/** The words a real shell makes of `line` (bash: $'…' pieces are ANSI-C quoting). */
function shellWords(line: string, dir: string): string[] {
  const r = Bun.spawnSync(["bash", "-c", `printf '%s\\0' ${line}`], { cwd: dir });
  expect(r.exitCode).toBe(0);
  return r.stdout.toString().split("\0").slice(0, -1);
}

function seedEvent(release: string, dist: string): void {
  const s = chunkStore(api.state);
  s.events.set(`web/${EVENT}`, {
    eventID: EVENT,
    title: "Error: boom",
    platform: "javascript",
    tags: [
      { key: "release", value: release },
      { key: "dist", value: dist },
    ],
    errors: [],
    entries: [
      {
        type: "exception",
        data: {
          values: [
            {
              type: "Error",
              value: "boom",
              stacktrace: {
                frames: [{ absPath: ABS, function: "a", lineNo: 1, colNo: 42, inApp: true, data: {} }],
              },
            },
          ],
        },
      },
    ],
  });
  s.noDebugEndpoint = true;
}

async function uploadOtherRelease(): Promise<void> {
  const dir = tempDir();
  writeFileSync(join(dir, "app.min.js"), "a();\n");
  const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--release", "0.9"], {
    api,
    token: USER_TOKEN,
    cwd: dir,
  });
  expect(r.exitCode).toBe(0);
  for (const b of chunkStore(api.state).bundles.values()) b.state = "ok";
  api.reset();
}

describe("quoteWord", () => {
  test.each(HOSTILE.map((h) => [h]))("%j is one inert word that means itself", (word) => {
    const dir = tempDir();
    const quoted = quoteWord(word);
    expect(quoted).not.toMatch(/[\n\r\t\x1b]/);
    expect(shellWords(quoted, dir)).toEqual([word]);
    expect(Bun.spawnSync(["ls", dir]).stdout.toString()).toBe("");
  });

  test("plain words stay bare", () => {
    expect(quoteWord("acme/web")).toBe("acme/web");
    expect(quoteWord("1.4.0+build.7")).toBe("1.4.0+build.7");
  });
});

describe("sourcemap explain with hostile release and dist tags", () => {
  test.each([
    ["1.0$(touch pwned)", "`touch pwned`;x|y"],
    ["line1\ntouch pwned", 'it\'s "q"'],
  ])("the Fix (JSON and text) pastes them as data: %j %j", async (release, dist) => {
    await uploadOtherRelease();
    seedEvent(release, dist);
    const r = await runCli(["sourcemap", "explain", EVENT, "acme/web", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.frames[0].cause).toBe("release_mismatch");
    const prefix = "tracker sourcemap upload <build-dir> ";
    expect(doc.fix).toStartWith(prefix);
    const dir = tempDir();
    expect(shellWords(doc.fix.slice(prefix.length), dir)).toEqual([
      "acme/web",
      "--release",
      release,
      "--dist",
      dist,
    ]);
    expect(Bun.spawnSync(["ls", dir]).stdout.toString()).toBe("");

    const t = await runOnTerminal(["sourcemap", "explain", EVENT, "acme/web"], { api, token: USER_TOKEN });
    expect(t.exitCode).toBe(0);
    const fixLines = t.stderr.split("\n").filter((l) => l.startsWith("Fix: "));
    expect(fixLines).toEqual([`Fix: ${doc.fix}`]);
  });
});

test("issue events: a hostile short ID from the server is quoted in the next-page tip", async () => {
  const path = "/api/0/organizations/acme/shortids/WEB-4Y/";
  const real = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${USER_TOKEN}` } });
  const body = (await real.json()) as { group: { shortId: string } };
  const hostile = "WEB-4Y$(touch pwned)`id`;|x";
  body.group.shortId = hostile;
  api.reset();
  api.inject({ path, status: 200, body });
  const r = await runOnTerminal(["issue", "events", "acme/WEB-4Y", "-n", "1"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  const tip = r.stderr.split("\n").find((l) => l.startsWith("More events: "));
  expect(tip).toBeDefined();
  const dir = tempDir();
  const words = shellWords((tip as string).slice("More events: tracker issue events ".length), dir);
  expect(words).toEqual([`acme/${hostile}`, "-c", "last"]);
  expect(Bun.spawnSync(["ls", dir]).stdout.toString()).toBe("");
});
