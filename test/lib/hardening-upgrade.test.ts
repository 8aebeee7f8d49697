/** `tracker upgrade` against a hostile release server: size caps on small files, redirects stay secure. */
import { afterEach, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { UpgradeError } from "../../src/lib/errors.ts";
import { fetchManifest } from "../../src/lib/upgrade/release.ts";
import { MAX_REDIRECTS, MAX_SMALL_FILE_BYTES, readCappedText } from "../../src/lib/upgrade/transport.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";

const servers: Server<undefined>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

/** A release server on `hostname` answering every request with `answer`; `hits` counts requests. */
function serve(answer: (req: Request) => Response, hostname = "127.0.0.1"): { url: string; hits: string[] } {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname,
    port: 0,
    fetch: (req) => {
      hits.push(new URL(req.url).pathname);
      return answer(req);
    },
  });
  servers.push(server);
  return { url: `http://${hostname}:${server.port}`, hits };
}

async function failure(p: Promise<unknown>): Promise<UpgradeError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpgradeError);
  return err as UpgradeError;
}

function contextFor(releaseUrl: string) {
  return createTestContext({ env: { TRACKER_RELEASE_URL: releaseUrl } }).ctx;
}

describe("manifest size cap", () => {
  test("a gzip bomb manifest is refused after 1 MiB of decompressed data (exit 50)", async () => {
    const bomb = Bun.gzipSync(new Uint8Array(16 * MAX_SMALL_FILE_BYTES).fill(0x20));
    const server = serve(
      () =>
        new Response(bomb, { headers: { "content-encoding": "gzip", "content-type": "application/json" } }),
    );
    const err = await failure(fetchManifest(contextFor(server.url), "1.2.3"));
    expect(err.message).toContain("is larger than 1024 KiB");

    const r = await runCli(["upgrade", "--check"], { env: { TRACKER_RELEASE_URL: server.url } });
    expect(r.exitCode).toBe(50);
    expect(r.stderr).toContain("release manifest");
    expect(r.stderr).toContain("is larger than 1024 KiB");
  });

  test("an endless manifest body is cut off at the cap", async () => {
    let pulls = 0;
    const server = serve(
      () =>
        new Response(
          new ReadableStream({
            pull: (c) => {
              pulls++;
              c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
            },
          }),
        ),
    );
    const err = await failure(fetchManifest(contextFor(server.url)));
    expect(err.message).toContain("is larger than 1024 KiB");
    expect(pulls).toBeLessThan(1000);
  });

  test("readCappedText reads a body up to the cap and refuses one byte more", async () => {
    expect(await readCappedText(new Response("x".repeat(2048)), "file", 2048)).toBe("x".repeat(2048));
    const err = await failure(readCappedText(new Response("x".repeat(2049)), "SHA256SUMS file", 2048));
    expect(err.message).toBe("The SHA256SUMS file is larger than 2 KiB; it is not a tracker release file.");
  });
});

describe("redirects", () => {
  test("a redirect to plain http on another host is refused before it is followed (exit 50)", async () => {
    // 127.0.0.2 is this machine on Linux, but not a name the loopback rule accepts: it stands for
    // any foreign host without leaving the machine.
    let target: { url: string; hits: string[] };
    try {
      target = serve(() => Response.json({ version: "9.9.9", assets: {} }), "127.0.0.2");
    } catch {
      target = { url: "http://127.0.0.2:9", hits: [] };
    }
    const mirror = serve((req) => Response.redirect(`${target.url}${new URL(req.url).pathname}`, 302));
    const r = await runCli(["upgrade", "--check"], { env: { TRACKER_RELEASE_URL: mirror.url } });
    expect(r.exitCode).toBe(50);
    expect(r.stderr).toStartWith(
      `Error: Refusing to fetch a tracker release over http from ${new URL(target.url).host} (redirected from ${new URL(mirror.url).host})`,
    );
    expect(mirror.hits).toEqual(["/latest/download/manifest.json"]);
    expect(target.hits).toEqual([]);
  });

  test("a redirect to a non-http scheme is refused", async () => {
    const mirror = serve(
      () => new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } }),
    );
    const err = await failure(fetchManifest(contextFor(mirror.url)));
    expect(err.message).toStartWith("Refusing to fetch a tracker release over file");
  });

  test("a redirect loop stops after the cap", async () => {
    const mirror = serve((req) => Response.redirect(`${req.url.split("?")[0]}?again`, 302));
    const err = await failure(fetchManifest(contextFor(mirror.url)));
    expect(err.message).toContain(`redirected more than ${MAX_REDIRECTS} times`);
    expect(mirror.hits.length).toBe(MAX_REDIRECTS + 1);
  });

  test("relative redirects on the same loopback mirror are followed", async () => {
    const manifest = { version: "1.2.3", assets: { "tracker-linux-x64": "a".repeat(64) } };
    const mirror = serve((req) =>
      new URL(req.url).pathname.startsWith("/latest/")
        ? new Response(null, { status: 307, headers: { location: "/download/v1.2.3/manifest.json" } })
        : Response.json(manifest),
    );
    expect(await fetchManifest(contextFor(mirror.url))).toEqual(manifest);
    expect(mirror.hits).toEqual(["/latest/download/manifest.json", "/download/v1.2.3/manifest.json"]);
  });
});
