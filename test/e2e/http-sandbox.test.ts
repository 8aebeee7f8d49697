import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { envFileFor } from "../../script/sandbox.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** Reads a child's stdout until `done` accepts the text so far (bounded by a deadline). */
async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean, ms: number) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (!done(text)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const chunk = await Promise.race([reader.read(), Bun.sleep(left).then(() => undefined)]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

test("bun run sandbox prints the exports, answers on the printed URL, and cleans up on Ctrl-C", async () => {
  // Port 0: random loopback ports, so a developer's running sandbox on 8800 does not collide.
  const proc = Bun.spawn([process.execPath, "run", "script/sandbox.ts", "--port", "0"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env },
  });
  try {
    const out = await readUntil(proc.stdout, (t) => t.includes("Press Ctrl-C to stop."), 10_000);
    const line = out.split("\n").find((l) => l.startsWith("export "));
    expect(line).toMatch(
      /^export TRACKER_URL=http:\/\/127\.0\.0\.1:\d+ TRACKER_AUTH_TOKEN=\S+ TRACKER_CONFIG_DIR=\S+$/,
    );
    const vars = Object.fromEntries(
      (line as string)
        .slice("export ".length)
        .split(" ")
        .map((kv) => kv.split("=") as [string, string]),
    );
    expect(vars.TRACKER_AUTH_TOKEN).toBe(USER_TOKEN);
    expect(existsSync(vars.TRACKER_CONFIG_DIR as string)).toBe(true);
    expect(out).toContain("org list");
    // The same export line for another shell: `eval "$(bun run sandbox --env --port N)"`.
    const port = Number(new URL(vars.TRACKER_URL as string).port);
    expect(out).toContain(`eval "$(bun run sandbox --env --port ${port})"`);
    const env = Bun.spawnSync(
      [process.execPath, "run", "script/sandbox.ts", "--env", "--port", String(port)],
      {
        cwd: ROOT,
      },
    );
    expect(env.exitCode).toBe(0);
    expect(env.stdout.toString()).toBe(`${line}\n`);
    // Every analysis state is reachable from a documented issue, with its exit code.
    for (const state of [
      "not enabled (exit 40)",
      "no budget for AI analysis (exit 41)",
      "disabled by the organization (exit 42)",
      "fails (exit 43)",
    ])
      expect(out).toContain(state);
    const notEnabled = /(acme\/WEB-\w+)\s+AI analysis not enabled/.exec(out)?.[1] as string;
    const explain = Bun.spawnSync(
      [process.execPath, "run", "src/bin.ts", "issue", "explain", notEnabled, "--json"],
      {
        cwd: ROOT,
        env: { ...process.env, ...vars },
      },
    );
    expect(explain.exitCode).toBe(40);

    const res = await fetch(`${vars.TRACKER_URL}/api/0/organizations/`, {
      headers: { Authorization: `Bearer ${vars.TRACKER_AUTH_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const orgs = (await res.json()) as { slug: string; links: { regionUrl: string } }[];
    expect(orgs.map((o) => o.slug)).toEqual(["acme", "globex", "initech"]);
    // Region listeners answer on the same loopback host, as the trust rule requires.
    const region = orgs[1]?.links.regionUrl as string;
    expect(new URL(region).hostname).toBe("127.0.0.1");
    const inRegion = await fetch(`${region}/api/0/organizations/globex/`, {
      headers: { Authorization: `Bearer ${vars.TRACKER_AUTH_TOKEN}` },
    });
    expect(inRegion.status).toBe(200);
    // Demo data sits relative to the current time, so the default 90-day window shows it.
    const issues = await fetch(`${orgs[0]?.links.regionUrl}/api/0/organizations/acme/issues/?limit=1`, {
      headers: { Authorization: `Bearer ${vars.TRACKER_AUTH_TOKEN}` },
    });
    const [newest] = (await issues.json()) as { lastSeen: string }[];
    const age = Date.now() - Date.parse(newest?.lastSeen as string);
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(24 * 3600_000);

    proc.kill("SIGINT");
    expect(await proc.exited).toBe(0);
    expect(existsSync(vars.TRACKER_CONFIG_DIR as string)).toBe(false);
    expect(existsSync(envFileFor(port))).toBe(false);
    // With no sandbox on that port, --env says so (exit 1) instead of printing a stale line.
    const gone = Bun.spawnSync(
      [process.execPath, "run", "script/sandbox.ts", "--env", "--port", String(port)],
      {
        cwd: ROOT,
      },
    );
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr.toString()).toContain(`no sandbox is running on port ${port}`);
  } finally {
    proc.kill();
  }
});

test("a bad --port is refused with exit 2", async () => {
  const proc = Bun.spawn([process.execPath, "run", "script/sandbox.ts", "--port", "http"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toBe(
    "sandbox: --port must be a whole number from 0 to 65533, got 'http'\n",
  );
});
