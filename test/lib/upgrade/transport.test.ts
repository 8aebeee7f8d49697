/** tracker upgrade's transport: https only (http on loopback), the API's proxy/CA options, a size cap. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UpgradeError } from "../../../src/lib/errors.ts";
import { downloadVerified } from "../../../src/lib/upgrade/download.ts";
import { assertSecureReleaseUrl, MAX_DOWNLOAD_BYTES } from "../../../src/lib/upgrade/transport.ts";
import { runCli, tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";

describe("release URLs", () => {
  test("https anywhere, plain http only on this machine", () => {
    for (const ok of [
      "https://github.com/x/releases",
      "http://127.0.0.1:8080/r",
      "http://localhost/r",
      "http://[::1]:9/r",
    ]) {
      expect(() => assertSecureReleaseUrl(ok)).not.toThrow();
    }
    for (const bad of [
      "http://releases.example.com/r",
      "ftp://example.com/r",
      "file:///tmp/tracker",
      "not a url",
    ]) {
      expect(() => assertSecureReleaseUrl(bad)).toThrow(UpgradeError);
    }
  });

  test("upgrade --check against a plain-http mirror fails before any request (exit 50)", async () => {
    let asked = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        asked++;
        return new Response("{}");
      },
    });
    try {
      // 127.0.0.1 spelled as a non-loopback name cannot be had offline; a foreign host is refused by its name.
      const r = await runCli(["upgrade", "--check"], {
        env: { TRACKER_RELEASE_URL: "http://releases.example.com/tracker" },
      });
      expect(r.exitCode).toBe(50);
      expect(r.stdout).toBe("");
      expect(r.stderr).toStartWith(
        "Error: Refusing to fetch a tracker release over http from releases.example.com",
      );
      expect(asked).toBe(0);
    } finally {
      server.stop(true);
    }
  });
});

describe("download size cap", () => {
  test("a download that streams past the cap is stopped and leaves no file (cap lowered for the test)", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream({
            pull: async (c) => {
              c.enqueue(new Uint8Array(1024));
              await Bun.sleep(5);
            },
          }),
          {},
        ),
    });
    const dest = join(tempDir("tracker-dl-"), "tracker.new");
    try {
      const { ctx } = createTestContext();
      const err = await downloadVerified(ctx, {
        url: `http://127.0.0.1:${server.port}/tracker`,
        dest,
        asset: "tracker-linux-x64",
        sha256: "0".repeat(64),
        timeoutMs: 5_000,
        maxBytes: 64 * 1024,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(UpgradeError);
      expect((err as UpgradeError).message).toContain("is larger than 64 KiB");
      expect(MAX_DOWNLOAD_BYTES).toBe(512 * 1024 * 1024);
      expect(existsSync(dest)).toBe(false);
    } finally {
      server.stop(true);
    }
  });
});
