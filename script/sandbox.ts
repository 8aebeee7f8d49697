/**
 * `bun run sandbox`: the fake Sentry API with its seeded demo data on fixed loopback ports, plus
 * the exact environment to point `tracker` at it. State lives in a temp dir that is removed on
 * Ctrl-C. Options: `--port <n>` for the control listener (regions take the next two; 0 = random).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import type { FakeApi } from "../test/fake-api/server.ts";

/** Control port used when --port is not given; the regions listen on the next two ports. */
export const SANDBOX_PORT = 8800;

function parsePort(argv: readonly string[]): number {
  const i = argv.indexOf("--port");
  const raw = i >= 0 ? argv[i + 1] : process.env.TRACKER_SANDBOX_PORT;
  if (raw === undefined) return SANDBOX_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65533) {
    console.error(`sandbox: --port must be a whole number from 0 to 65533, got '${raw}'`);
    process.exit(2);
  }
  return port;
}

/** Shell-quotes a value only when it needs it (temp paths are usually plain). */
function sh(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

async function main(): Promise<void> {
  // Demo data relative to the current time: the fake server reads its clock when first loaded.
  process.env.FAKE_API_NOW = "now";
  const { configureOAuth, TEST_CLIENT_ID } = await import("../test/fake-api/routes/oauth.ts");
  const { USER_TOKEN } = await import("../test/fake-api/seed.ts");
  const { startFakeApi } = await import("../test/fake-api/server.ts");
  const port = parsePort(process.argv.slice(2));
  const configDir = mkdtempSync(join(tmpdir(), "tracker-sandbox-"));
  let api: FakeApi;
  try {
    // The demo device flow approves after two "authorization_pending" polls, one second apart.
    api = await startFakeApi({
      port,
      setup: (state) =>
        configureOAuth(state, {
          interval: 1,
          pollAnswers: ["authorization_pending", "authorization_pending"],
        }),
    });
  } catch (err) {
    rmSync(configDir, { recursive: true, force: true });
    console.error(
      `sandbox: could not listen on 127.0.0.1:${port}-${port + 2}: ${(err as Error).message}\n` +
        "Another sandbox may be running; stop it or pick other ports with --port <n>.",
    );
    process.exit(1);
  }

  const root = resolve(import.meta.dir, "..");
  const cli = relative(process.cwd(), join(root, "src/bin.ts")) || "src/bin.ts";
  const run = `bun run ${sh(cli)}`;
  const lines = [
    `Fake Sentry API on ${api.urls.control} (regions: us ${api.urls.us}, de ${api.urls.de})`,
    "Seed: organizations acme (us), globex (de), initech (us), with projects, issues and traces.",
    "",
    "Point tracker at it (state goes to a temp dir that is removed when the sandbox stops):",
    "",
    `export TRACKER_URL=${api.url} TRACKER_AUTH_TOKEN=${USER_TOKEN} TRACKER_CONFIG_DIR=${sh(configDir)}`,
    "",
    "Then try:",
    `  ${run} auth status`,
    `  ${run} org list`,
    `  ${run} project list acme`,
    `  ${run} issue list acme/web`,
    `  ${run} trace list acme/web --json`,
    "  (or dist/tracker … after `bun run build`)",
    "",
    "The OAuth device flow (approved automatically after two polls):",
    `  env -u TRACKER_AUTH_TOKEN TRACKER_CLIENT_ID=${TEST_CLIENT_ID} ${run} auth login`,
    "",
    "Press Ctrl-C to stop.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    api.stop();
    rmSync(configDir, { recursive: true, force: true });
    process.stderr.write("sandbox stopped\n");
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.main) await main();
