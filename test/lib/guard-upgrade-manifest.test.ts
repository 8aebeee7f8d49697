/** Guard: `upgrade <v>` refuses a manifest that names another version. */
import { afterEach, expect, test } from "bun:test";
import type { Server } from "bun";
import { UpgradeError } from "../../src/lib/errors.ts";
import { fetchManifest } from "../../src/lib/upgrade/release.ts";
import { createTestContext } from "../helpers/context.ts";

const servers: Server<undefined>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

function mirror(manifest: unknown): { url: string; hits: string[] } {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      hits.push(new URL(req.url).pathname);
      return Response.json(manifest);
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}`, hits };
}

const ctxFor = (url: string) => createTestContext({ env: { TRACKER_RELEASE_URL: url } }).ctx;
const assets = { "tracker-linux-x64": "a".repeat(64) };

test("the manifest of v1.2.3 saying 1.2.4 is refused as version_not_found", async () => {
  const m = mirror({ version: "1.2.4", assets });
  const err = await fetchManifest(ctxFor(m.url), "1.2.3").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpgradeError);
  expect((err as Error).message).toContain("is version 1.2.4, not 1.2.3");
  expect(m.hits).toEqual(["/download/v1.2.3/manifest.json"]);
});

test("the manifest of the asked version is accepted", async () => {
  const m = mirror({ version: "1.2.3", assets });
  expect(await fetchManifest(ctxFor(m.url), "1.2.3")).toEqual({ version: "1.2.3", assets });
});
