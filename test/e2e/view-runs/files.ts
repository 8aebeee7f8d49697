/**
 * Parity runs of the local-file and account reports: `debug-files check|find|explain`, `proguard
 * uuid`, `sourcemap explain`, `auth status`, `defaults show`. Fixtures are named by absolute path
 * (the runs' working directory is their config directory).
 */
import { join } from "node:path";
import { writeCredentials } from "../../../src/lib/db/auth.ts";
import { writeDefaultEnvironments, writeDefaults } from "../../../src/lib/db/defaults.ts";
import { writeProjectDefault } from "../../../src/lib/db/project-defaults.ts";
import { createTestContext } from "../../helpers/context.ts";
import { DEMO_NATIVE_EVENT, seedDifDemo } from "../../fake-api/routes/difs.ts";
import type { ViewRun } from "./types.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const DIFS = join(FIXTURES, "difs");
/** The debug ID of test/fixtures/difs/elf-debug and its companions (sentry-cli-check.json). */
const ELF_DEBUG_ID = "ccc66117-0654-ddba-9931-e54e4b07f9a3";

export const RUNS: Record<string, ViewRun> = {
  // A universal binary: the file's block, then one per architecture.
  "debug-files check": { args: ["debug-files", "check", join(DIFS, "macho-fat")] },
  "debug-files find": { args: ["debug-files", "find", ELF_DEBUG_ID, DIFS] },
  // The demo's native event: images missing, found without symbols, and the Fix command.
  "debug-files explain": {
    args: ["debug-files", "explain", DEMO_NATIVE_EVENT, "acme/mobile-app"],
    setup: ({ state }) => void seedDifDemo(state),
  },
  "sourcemap explain": { args: ["sourcemap", "explain", "acme/WEB-4Y"] },
  "proguard uuid": { args: ["proguard", "uuid", join(FIXTURES, "proguard/mapping.txt")] },
  // The environment's token, and a stored login of another service (listed, not used).
  "auth status": {
    args: ["auth", "status"],
    setup: ({ configDir }) => {
      const { ctx } = createTestContext({ configDir });
      writeCredentials(ctx, {
        token: `sntryu_${"c4".repeat(32)}`,
        refresh_token: null,
        expires_at: null,
        issued_at: null,
        kind: "user",
        base_url: "https://sentry.example.com",
        user_json: null,
      });
    },
  },
  // A global default shadowed by a `--here` default of the working directory, and environments.
  "defaults show": {
    args: ["defaults", "show"],
    setup: ({ configDir }) => {
      const { ctx } = createTestContext({ configDir, cwd: configDir });
      writeDefaults(ctx, { org: "acme", project: "web" });
      writeProjectDefault(ctx, { root: configDir, org: "acme", project: "api" });
      writeDefaultEnvironments(ctx, ["production"]);
    },
  },
};
