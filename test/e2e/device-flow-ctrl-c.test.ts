/**
 * Ctrl-C while `auth login` waits for approval, as a person has it: a pseudo-terminal with
 * TERM=xterm-256color, colours on (no NO_COLOR), the spinner drawn. Exit 130, nothing stored.
 * (The NO_COLOR path passed while people with colour terminals got exit 0, three times.)
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { configureOAuth, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { cliCommand, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

describe.skipIf(!Bun.which("script"))("auth login on a colour terminal", () => {
  test("Ctrl-C typed while the spinner waits for approval exits 130 and stores nothing", async () => {
    // Approval never comes: the service keeps answering "pending" every second.
    configureOAuth(api.state, { interval: 1, pollAnswers: Array(60).fill("authorization_pending") });
    const configDir = tempDir();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (
        v !== undefined &&
        !k.startsWith("TRACKER_") &&
        !["CI", "NO_COLOR", "AGENT", "CLAUDECODE"].includes(k)
      )
        env[k] = v;
    const cmd = `stty cols 100 rows 20 2>/dev/null; exec ${[...cliCommand(), "auth", "login"].map(quote).join(" ")}`;
    const proc = Bun.spawn(["script", "-qefc", cmd, "/dev/null"], {
      cwd: tempDir(),
      env: {
        ...env,
        TERM: "xterm-256color",
        COLUMNS: "100",
        LINES: "20",
        TRACKER_URL: api.url,
        TRACKER_CONFIG_DIR: configDir,
        TRACKER_CLIENT_ID: TEST_CLIENT_ID,
        TRACKER_NO_BROWSER: "1",
        BROWSER: "true",
      },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const chunks: string[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const c of proc.stdout) chunks.push(decoder.decode(c));
    })();
    // Type Ctrl-C once the spinner is on the screen (its frames are drawn after the code).
    for (let i = 0; i < 100 && !/enter the code/.test(chunks.join("")); i++) await Bun.sleep(100);
    await Bun.sleep(1200);
    proc.stdin.write("\x03");
    proc.stdin.flush();
    const exitCode = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => "hung")]);
    if (exitCode === "hung") proc.kill(9);
    await reading;
    const screen = chunks.join("");
    expect(screen).toContain("enter the code");
    // Colour and the spinner were really on: escape sequences and a spinner frame.
    expect(screen).toMatch(/\x1b\[[0-9;]*m/);
    expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(exitCode).toBe(130);
    // Nothing stored: no login row (the database may not even exist).
    const db = join(configDir, "tracker.db");
    if (existsSync(db)) {
      const conn = new Database(db, { readonly: true });
      try {
        const logins = conn.query("SELECT name FROM sqlite_master WHERE name = 'logins'").get()
          ? (conn.query("SELECT COUNT(*) AS n FROM logins").get() as { n: number }).n
          : 0;
        expect(logins).toBe(0);
      } finally {
        conn.close();
      }
    }
    expect(api.requestsTo("/oauth/token/", "POST").every((r) => r.status === 400)).toBe(true);
  }, 30_000);
});
