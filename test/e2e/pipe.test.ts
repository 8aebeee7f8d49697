/** Writing into a closed pipe (`tracker ... | head -1`) ends quietly with exit code 0. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeApi, type FakeApi } from "../fake-api/server.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import type { SeedOrg } from "../fake-api/types.ts";
import { cliCommand, tempDir } from "../helpers/cli.ts";

const MANY_ORGS = 1500;

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({
    setup: (state) => {
      for (let i = 0; i < MANY_ORGS; i++) {
        const org: SeedOrg = {
          id: String(900000 + i),
          slug: `bulk-${i}`,
          name: `Bulk organization ${i} ${"with a long name ".repeat(8)}`,
          region: i % 2 === 0 ? "us" : "de",
          dateCreated: "2024-01-01T00:00:00.000Z",
        };
        state.orgs.push(org);
      }
    },
  });
});
afterAll(() => api.stop());

/** Runs `tracker <args> | head <headArgs>` in bash and returns tracker's exit status, head's output and tracker's stderr. */
async function pipeToHead(args: string[], env: Record<string, string> = {}, headArgs = "-1") {
  const cmd = [...cliCommand(), ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_")) clean[k] = v;
  const proc = Bun.spawn(
    [
      "bash",
      "-c",
      `${cmd} 2>"$ERR_FILE" | head ${headArgs}; echo "status=\${PIPESTATUS[0]}"; cat "$ERR_FILE"`,
    ],
    {
      env: { ...clean, TRACKER_CONFIG_DIR: tempDir(), ERR_FILE: `${tempDir()}/stderr`, ...env },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const m = /^([\s\S]*?)status=(\d+)\n([\s\S]*)$/.exec(out);
  return { head: m?.[1] ?? "", status: Number(m?.[2]), stderr: m?.[3] ?? out };
}

test("tracker --help | head -1", async () => {
  expect(await pipeToHead(["--help"])).toEqual({ head: "USAGE\n", status: 0, stderr: "" });
});

test("a long table piped into head -1 exits 0 without an EPIPE trace", async () => {
  const r = await pipeToHead(["org", "list"], { TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN });
  expect(r).toEqual({ head: expect.stringMatching(/^acme\t[^\t]+\t[^\t]+\n$/), status: 0, stderr: "" });
});

test("a long JSON document (compact when piped) cut short by head -c 1 exits 0 too", async () => {
  const r = await pipeToHead(
    ["org", "list", "--json"],
    { TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN },
    "-c 1",
  );
  expect(r).toEqual({ head: "[", status: 0, stderr: "" });
});
