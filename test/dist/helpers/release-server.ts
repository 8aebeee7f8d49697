/**
 * A local release server on 127.0.0.1 with the GitHub-releases layout tracker uses:
 * `/download/v<version>/<asset>` and `/latest/download/<asset>` (302 to the newest version).
 * Files are served from disk (real compiled binaries) or memory. Faults: a status code for one
 * path, or an interrupted body (headers promise the full length, the connection closes early).
 */
import type { Server, TCPSocketListener } from "bun";

/** A file of a release: a path on disk or literal content. */
export type ReleaseFile = { path: string } | { data: string | Uint8Array };

/** A fault injected for one request path. */
export type ReleaseFault = { status: number } | { interruptAfterBytes: number };

/** Handle of a running release server. */
export interface ReleaseServer {
  /** Base URL to put in TRACKER_RELEASE_URL. */
  url: string;
  /** Paths requested so far, as `METHOD /path`. */
  requests: string[];
  publish(version: string, files: Record<string, ReleaseFile>): void;
  /** Which version `/latest/` redirects to (default: the last published). */
  setLatest(version: string | undefined): void;
  fault(path: string, fault: ReleaseFault | undefined): void;
  reset(): void;
  stop(): void;
}

async function bytesOf(file: ReleaseFile): Promise<Uint8Array> {
  if ("path" in file) return new Uint8Array(await Bun.file(file.path).arrayBuffer());
  return typeof file.data === "string" ? new TextEncoder().encode(file.data) : file.data;
}

/** Starts a release server. */
export function startReleaseServer(): ReleaseServer {
  const releases = new Map<string, Map<string, ReleaseFile>>();
  const faults = new Map<string, ReleaseFault>();
  const requests: string[] = [];
  let latest: string | undefined;

  // Serves one truncated response per connection: full Content-Length, partial body, then close.
  const pending = new Map<string, { body: Uint8Array; cut: number }>();
  const truncating: TCPSocketListener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, chunk) {
        const line = new TextDecoder().decode(chunk).split("\r\n")[0] ?? "";
        const path = line.split(" ")[1] ?? "";
        const job = pending.get(path);
        if (!job) {
          socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
          return;
        }
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: ${job.body.byteLength}\r\nconnection: close\r\n\r\n`,
        );
        socket.write(job.body.subarray(0, job.cut));
        socket.end();
      },
    },
  });

  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(`${req.method} ${path}`);
      const fault = faults.get(path);
      if (fault && "status" in fault) return new Response(`fault ${fault.status}`, { status: fault.status });
      const latestMatch = /^\/latest\/download\/([^/]+)$/.exec(path);
      if (latestMatch) {
        if (!latest) return new Response("no releases", { status: 404 });
        return Response.redirect(`/download/v${latest}/${latestMatch[1]}`, 302);
      }
      const m = /^\/download\/v([^/]+)\/([^/]+)$/.exec(path);
      const file = m ? releases.get(m[1] as string)?.get(m[2] as string) : undefined;
      if (!file) return new Response("Not Found", { status: 404 });
      if (fault && "interruptAfterBytes" in fault) {
        const key = `/cut/${pending.size}${path}`;
        pending.set(key, { body: await bytesOf(file), cut: fault.interruptAfterBytes });
        return Response.redirect(`http://127.0.0.1:${truncating.port}${key}`, 302);
      }
      const body = "path" in file ? Bun.file(file.path) : file.data;
      return new Response(body, { headers: { "content-type": "application/octet-stream" } });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    publish(version, files) {
      releases.set(version, new Map(Object.entries(files)));
      latest = version;
    },
    setLatest(version) {
      latest = version;
    },
    fault(path, f) {
      if (f) faults.set(path, f);
      else faults.delete(path);
    },
    reset() {
      faults.clear();
      requests.length = 0;
    },
    stop() {
      server.stop(true);
      truncating.stop(true);
    },
  };
}
