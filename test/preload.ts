import { afterAll } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
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
  // The Sentry tools' configuration is read as a fallback (issue 24): a developer's must not leak in.
  "SENTRY_AUTH_TOKEN",
  "SENTRY_TOKEN",
  "SENTRY_URL",
  "SENTRY_HOST",
  "SENTRY_ORG",
  "SENTRY_PROJECT",
  "SENTRY_DSN",
  "SENTRY_PROPERTIES",
  "SENTRY_CONFIG_DIR",
]) {
  delete process.env[key];
}
// A developer's ~/.sentryclirc would be read by every run that does not set HOME: use an empty home.
const testHome = existsSync(join(process.env.HOME || homedir(), ".sentryclirc"))
  ? mkdtempSync(join(tmpdir(), "tracker-test-home-"))
  : undefined;
if (testHome) process.env.HOME = testHome;
const runConfigDir = mkdtempSync(join(tmpdir(), "tracker-test-config-"));
process.env.TRACKER_CONFIG_DIR = runConfigDir;

// Every temp dir a test made through tempDir() (and this run's config dir) goes at the end: stray
// `.env` files with DSNs in TMPDIR would confuse DSN detection on this machine later.
const runStartedMs = Date.now();
afterAll(async () => {
  const { removeTempDirs } = await import("./helpers/cli.ts");
  removeTempDirs();
  rmSync(runConfigDir, { recursive: true, force: true });
  if (testHome) rmSync(testHome, { recursive: true, force: true });
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
  // Removing thousands of temp dirs on a loaded machine takes more than the default 5 s.
}, 120_000);
