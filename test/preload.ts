import { afterAll } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A developer's own login or defaults must never leak into a test run.
for (const key of Object.keys(process.env)) {
  if (key.startsWith("TRACKER_") && key !== "TRACKER_TEST_BINARY") delete process.env[key];
}
for (const key of [
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "https_proxy",
  "http_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "NO_COLOR",
  // Agent/CI mode turns pagers, spinners and prompts off: tests that want it set it themselves
  // (CI runs the suite with CI=true, and a developer's agent shell sets its own variable).
  "CI",
  "CLAUDECODE",
  "CURSOR_AGENT",
  "CODEX_SANDBOX",
  "GEMINI_CLI",
  "AGENT",
]) {
  delete process.env[key];
}
const runConfigDir = mkdtempSync(join(tmpdir(), "tracker-test-config-"));
process.env.TRACKER_CONFIG_DIR = runConfigDir;

// Every temp dir a test made through tempDir() (and this run's config dir) goes at the end: stray
// `.env` files with DSNs in TMPDIR would confuse DSN detection on this machine later.
const runStartedMs = Date.now();
afterAll(async () => {
  const { removeTempDirs } = await import("./helpers/cli.ts");
  removeTempDirs();
  rmSync(runConfigDir, { recursive: true, force: true });
  // What is still there was made by a test outside tempDir(): name it so it gets fixed.
  const left = readdirSync(tmpdir()).filter((name) => {
    if (!name.startsWith("tracker-")) return false;
    try {
      return statSync(join(tmpdir(), name)).birthtimeMs >= runStartedMs;
    } catch {
      return false;
    }
  });
  if (left.length > 0) process.stderr.write(`Temp dirs left behind by tests: ${left.join(", ")}\n`);
});
