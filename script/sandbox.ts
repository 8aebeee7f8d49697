/**
 * `bun run sandbox`: the fake Sentry API with its seeded demo data on fixed loopback ports, plus
 * the exact environment to point `tracker` at it. State lives in a temp dir that is removed on
 * Ctrl-C. Options: `--port <n>` for the control listener (regions take the next two; 0 = random).
 * `bun run sandbox --env [--port <n>]` prints the export line of the sandbox running on that port
 * and exits, for `eval "$(bun run sandbox --env)"` in another shell.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** Where a running sandbox leaves its export line for `--env` (removed when it stops). */
export function envFileFor(port: number): string {
  return join(tmpdir(), `tracker-sandbox-${port}.env`);
}

/** `--env`: the export line of the sandbox running on the port, or exit 1 saying none is. */
function printEnv(port: number): never {
  const file = envFileFor(port);
  if (!existsSync(file)) {
    console.error(
      `sandbox: no sandbox is running on port ${port}. Start one with \`bun run sandbox${port === SANDBOX_PORT ? "" : ` --port ${port}`}\` in another shell.`,
    );
    process.exit(1);
  }
  process.stdout.write(readFileSync(file, "utf8"));
  process.exit(0);
}

/**
 * The analysis state each demo issue shows (API.md 6.4): set on the first acme/web issues, so
 * every outcome of `issue explain`/`issue plan` can be tried. Returned as [short ID, what happens].
 */
function seedAnalysisStates(
  state: import("../test/fake-api/types.ts").FakeState,
  set: typeof import("../test/fake-api/routes/autofix.ts").setAutofixScenario,
  issues: readonly { id: string; shortId: string; org: string; projectId: string }[],
): [string, string][] {
  const web = issues.filter((i) => i.org === "acme" && i.projectId === "300001");
  const plan: [import("../test/fake-api/routes/autofix.ts").AutofixScenario, string][] = [
    [{}, "analysed after a few polls (explain, then plan)"],
    [{ existing: { stage: "solution" } }, "already analysed: answers at once"],
    [{ deny: "not_enabled" }, "AI analysis not enabled (exit 40)"],
    [{ deny: "no_budget" }, "no budget for AI analysis (exit 41)"],
    [{ deny: "ai_disabled" }, "AI features disabled by the organization (exit 42)"],
    [{ outcome: "error" }, "the analysis fails (exit 43)"],
    [{ outcome: "no_solution", pollsPerStage: 1 }, "root cause found, but no fix plan (plan: exit 43)"],
  ];
  const out: [string, string][] = [];
  plan.forEach(([scenario, what], i) => {
    const issue = web[i];
    if (!issue) return;
    set(state, issue.id, { pollsPerStage: 2, ...scenario });
    out.push([`acme/${issue.shortId}`, what]);
  });
  return out;
}

/** Shell-quotes a value only when it needs it (temp paths are usually plain). */
function sh(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

async function main(): Promise<void> {
  // Demo data relative to the current time: the fake server reads its clock when first loaded.
  process.env.FAKE_API_NOW = "now";
  const argv = process.argv.slice(2);
  const port = parsePort(argv);
  if (argv.includes("--env")) printEnv(port);
  const { configureOAuth, TEST_CLIENT_ID } = await import("../test/fake-api/routes/oauth.ts");
  const { setAutofixScenario } = await import("../test/fake-api/routes/autofix.ts");
  const { issueStore, seedMyPlate } = await import("../test/fake-api/routes/issues.ts");
  const { DEMO_NATIVE_EVENT, seedDifDemo } = await import("../test/fake-api/routes/difs.ts");
  const { USER_TOKEN } = await import("../test/fake-api/seed.ts");
  const { seedIncidentDemo } = await import("../test/fake-api/routes/incidents.ts");
  const { startFakeApi } = await import("../test/fake-api/server.ts");
  let analysis: [string, string][] = [];
  let demo: { issue: string; replay: string; feedback: string } | undefined;
  const configDir = mkdtempSync(join(tmpdir(), "tracker-sandbox-"));
  let api: FakeApi;
  try {
    // The demo device flow approves after two "authorization_pending" polls, one second apart.
    api = await startFakeApi({
      port,
      setup: (state) => {
        configureOAuth(state, {
          interval: 1,
          pollAnswers: ["authorization_pending", "authorization_pending"],
        });
        analysis = seedAnalysisStates(state, setAutofixScenario, issueStore(state).issues);
        // Issues assigned to the demo user and regressions, for `tracker status`.
        seedMyPlate(state);
        // Activity, links, suspect commits, deploys, feedback and replays (issue 34).
        demo = seedIncidentDemo(state);
        // A native event with unsymbolicated frames, for `tracker debug-files explain`.
        seedDifDemo(state);
      },
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
  const exportLine = `export TRACKER_URL=${api.url} TRACKER_AUTH_TOKEN=${USER_TOKEN} TRACKER_CONFIG_DIR=${sh(configDir)}`;
  const actualPort = Number(new URL(api.url).port);
  const envFile = envFileFor(actualPort);
  writeFileSync(envFile, `${exportLine}\n`, { mode: 0o600 });
  const width = Math.max(...analysis.map(([id]) => id.length));
  const lines = [
    `Fake Sentry API on ${api.urls.control} (regions: us ${api.urls.us}, de ${api.urls.de})`,
    "Seed: organizations acme (us), globex (de), initech (us), with projects, issues, traces, logs,",
    "spans, releases (with commits and deploys), cron monitors and issues assigned to you.",
    "",
    "Point tracker at it (state goes to a temp dir that is removed when the sandbox stops):",
    "",
    exportLine,
    "",
    "or, in any other shell:",
    "",
    `eval "$(bun run sandbox --env${actualPort === SANDBOX_PORT ? "" : ` --port ${actualPort}`})"`,
    "",
    "Then try:",
    `  ${run} auth status`,
    `  ${run} org list`,
    `  ${run} project list acme`,
    `  ${run} issue list acme/web`,
    `  ${run} trace list acme/web --json`,
    `  ${run} log list acme/web`,
    `  ${run} span list acme/web -s duration`,
    `  ${run} query acme/ --dataset spans -F transaction -F 'p95(span.duration)'`,
    `  ${run} release list acme/web`,
    `  ${run} monitor list acme`,
    `  ${run} status acme`,
    `  ${run} debug-files explain ${DEMO_NATIVE_EVENT} acme/mobile-app`,
    "  (or dist/tracker … after `bun run build`)",
    "",
    ...(demo
      ? [
          "An incident, with what happened around it:",
          `  ${run} issue view ${demo.issue}`,
          `  ${run} issue activity ${demo.issue}`,
          `  ${run} issue timeline ${demo.issue} --format md`,
          `  ${run} issue link ${demo.issue} https://github.com/acme/web/issues/400`,
          `  ${run} feedback list acme/web`,
          `  ${run} feedback view ${demo.feedback}`,
          `  ${run} replay list acme/web`,
          `  ${run} replay view ${demo.replay} acme/web`,
          "",
        ]
      : []),
    "The OAuth device flow (approved automatically after two polls):",
    `  env -u TRACKER_AUTH_TOKEN TRACKER_CLIENT_ID=${TEST_CLIENT_ID} ${run} auth login`,
    "",
    "AI analysis (tracker issue explain|plan <issue>), one state per issue:",
    ...analysis.map(([id, what]) => `  ${id.padEnd(width)}  ${what}`),
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
    rmSync(envFile, { force: true });
    process.stderr.write("sandbox stopped\n");
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.main) await main();
