import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore, readZipEntry } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const OPTIONS = "/api/0/organizations/acme/chunk-upload/";
const ASSEMBLE = "/api/0/organizations/acme/artifactbundle/assemble/";
const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
  },
});

/** Deterministic text that does not compress much. */
function noise(bytes: number): string {
  let out = "";
  for (let i = 0; out.length < bytes; i++) out += Bun.hash(String(i)).toString(36);
  return out.slice(0, bytes);
}

/** A build directory: an injected app.js with its map, a vendor file without id, a nested chunk. */
function build(extraKiB = 0): string {
  const dir = tempDir();
  mkdirSync(join(dir, "static/js"), { recursive: true });
  writeFileSync(join(dir, "app.js"), `a();\n//# sourceMappingURL=app.js.map\n//# debugId=${ID}\n`);
  writeFileSync(
    join(dir, "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], debug_id: ID }),
  );
  writeFileSync(join(dir, "static/js/vendor.js"), `v();\n${noise(extraKiB * 1024)}\n`);
  writeFileSync(join(dir, "notes.txt"), "not uploaded");
  return dir;
}

function bundleOf() {
  const [b] = [...chunkStore(api.state).bundles.values()];
  return b;
}

describe("sourcemap upload (real CLI)", () => {
  test("fresh upload: options, assemble (all missing), raw chunks, assemble; manifest with URLs, types, headers", async () => {
    const dir = build();
    const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--release", "1.4.0", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      org: "acme",
      projects: ["web"],
      release: "1.4.0",
      state: "created",
      reused: false,
      chunks: { total: 1, sent: 1, skipped: 0 },
    });
    expect(doc.files.map((f: { url: string; type: string }) => [f.url, f.type])).toEqual([
      ["~/app.js", "minified_source"],
      ["~/static/js/vendor.js", "minified_source"],
      ["~/app.js.map", "source_map"],
    ]);
    // The first request of a run looks up the organization's region.
    expect(api.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      "GET /api/0/organizations/acme/",
      `GET ${OPTIONS}`,
      `POST ${ASSEMBLE}`,
      `POST ${ASSEMBLE}`,
    ]);
    const posts = chunkStore(api.state).posts;
    expect(posts).toHaveLength(1);
    expect(posts[0]?.fields).toEqual(["file"]);
    expect(JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "")).toEqual({
      projects: ["web"],
      version: "1.4.0",
      checksum: doc.checksum,
      chunks: posts[0]?.names,
    });
    expect(bundleOf()?.manifest?.files["files/_/_/app.js"]).toEqual({
      type: "minified_source",
      url: "~/app.js",
      headers: { "debug-id": ID, sourcemap: "app.js.map" },
    });
    expect(bundleOf()?.manifest?.files["files/_/_/app.js.map"]).toEqual({
      type: "source_map",
      url: "~/app.js.map",
      headers: { "debug-id": ID },
    });
  });

  test("re-upload of unchanged files: one assemble request, no chunk; identical input gives the identical bundle", async () => {
    const dir = build(64);
    const configDir = tempDir();
    const first = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
      configDir,
    });
    expect(first.exitCode).toBe(0);
    api.reset();
    const again = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
      configDir,
    });
    expect(again.exitCode).toBe(0);
    expect(api.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST ${ASSEMBLE}`]);
    expect(JSON.parse(again.stdout)).toMatchObject({
      reused: true,
      state: "ok",
      chunks: { sent: 0 },
      checksum: JSON.parse(first.stdout).checksum,
    });
    expect(chunkStore(api.state).posts).toHaveLength(1);
    // Another machine (no cache) builds the same bytes: the service knows the checksum, nothing is sent.
    api.reset();
    const other = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(JSON.parse(other.stdout)).toMatchObject({
      reused: false,
      state: "ok",
      chunks: { sent: 0 },
      checksum: JSON.parse(first.stdout).checksum,
    });
    expect(chunkStore(api.state).posts).toHaveLength(1);
  });

  test("fresh upload to a server that accepts gzip: the bundle's entries are deflated, chunks go raw as `file`", async () => {
    const dir = build(600);
    writeFileSync(
      join(dir, "static/js/vendor.js.map"),
      JSON.stringify({ version: 3, mappings: "AAAA;".repeat(60_000) }),
    );
    const s = chunkStore(api.state);
    Object.assign(s.options, { chunkSize: 64 * 1024, chunksPerRequest: 4, concurrency: 3 });
    expect(s.options.compression).toEqual(["gzip"]);
    const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    // Every chunk POSTed once, as the raw bytes of the bundle (no gzip member), none over the limits.
    expect(s.posts.every((p) => p.fields.every((f) => f === "file") && p.names.length <= 4)).toBe(true);
    const sent = s.posts.flatMap((p) => p.names);
    expect(new Set(sent).size).toBe(doc.chunks.total);
    expect(s.posts.reduce((n, p) => n + p.bytes, 0)).toBe(doc.bundleSize);
    const zip = new Uint8Array(
      Buffer.concat(
        JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "").chunks.map(
          (c: string) => s.chunks.get(c) as Uint8Array,
        ),
      ),
    );
    // Local headers: both large entries are deflated (method 8) in the zip itself.
    const methods = new Map<string, number>();
    const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let p = 0; dv.getUint32(p, true) === 0x04034b50; ) {
      const nlen = dv.getUint16(p + 26, true);
      methods.set(new TextDecoder().decode(zip.subarray(p + 30, p + 30 + nlen)), dv.getUint16(p + 8, true));
      p += 30 + nlen + dv.getUint32(p + 18, true);
    }
    expect(methods.get("files/_/_/static/js/vendor.js.map")).toBe(8);
    expect(methods.get("files/_/_/static/js/vendor.js")).toBe(8);
    expect(doc.bundleSize).toBeLessThan(600 * 1024);
    expect(bundleOf()?.state).toBe("created");
  });

  test("only missing chunks are sent, in requests within chunksPerRequest, raw without gzip", async () => {
    const dir = build(40);
    const s = chunkStore(api.state);
    Object.assign(s.options, { chunkSize: 4096, chunksPerRequest: 3, concurrency: 2, compression: [] });
    const first = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    const total = JSON.parse(first.stdout).chunks.total as number;
    expect(total).toBeGreaterThan(3);
    expect(s.posts.every((p) => p.names.length <= 3 && p.fields.every((f) => f === "file"))).toBe(true);
    const [lost] = [...s.chunks.keys()];
    s.chunks.delete(lost as string);
    s.bundles.clear();
    s.posts.length = 0;
    const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--json", "--force"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(JSON.parse(r.stdout).chunks).toEqual({ total, sent: 1, skipped: total - 1 });
    expect(s.posts.map((p) => p.names)).toEqual([[lost as string]]);
  });

  test("--wait polls until ok; error state ends with the detail (exit 30)", async () => {
    const dir = build();
    const s = chunkStore(api.state);
    s.pollsBeforeDone = 2;
    const slept: number[] = [];
    let now = Date.parse("2026-01-15T12:00:00Z");
    const env = {
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_CONFIG_DIR: tempDir(),
      TRACKER_PAGER: "",
    };
    const over = {
      env,
      cwd: dir,
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
    const ok = await runInProcess(["sourcemap", "upload", ".", "acme/web", "--wait", "--json"], over);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout).state).toBe("ok");
    expect(slept).toEqual([1000, 1000, 1000]);
    expect(api.requestsTo(ASSEMBLE).map((q) => q.status)).toEqual([200, 200, 200, 200, 200]);
    api.reset();
    s.bundles.clear();
    s.failWith = "Invalid source map: app.js.map";
    s.pollsBeforeDone = 0;
    const bad = await runInProcess(["sourcemap", "upload", ".", "acme/web", "--wait", "--force"], {
      ...over,
      env: { ...env, TRACKER_CONFIG_DIR: tempDir() },
    });
    expect(bad.exitCode).toBe(30);
    expect(bad.stderr).toContain("The service failed to process the uploaded files");
    expect(bad.stderr).toContain("Invalid source map: app.js.map");
  });

  test("an upload URL on another host gets no token and no chunk", async () => {
    const dir = build();
    chunkStore(api.state).options.url = "http://localhost:9/api/0/organizations/acme/chunk-upload/";
    const r = await runCli(["sourcemap", "upload", ".", "acme/web"], { api, token: USER_TOKEN, cwd: dir });
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toContain("upload URL on another host (localhost:9)");
    expect(api.requests.at(-1)?.path).toBe(OPTIONS);
    expect(chunkStore(api.state).posts).toEqual([]);
  });

  test("bad input: corrupt map, map outside the tree, file over maxFileSize, symlink loop: notes, no hang", async () => {
    const dir = build(8);
    writeFileSync(join(dir, "bad.js.map"), "{oops");
    writeFileSync(join(dir, "out.js"), "o();\n//# sourceMappingURL=../../../secret.map\n");
    symlinkSync(dir, join(dir, "static/loop"));
    chunkStore(api.state).options.maxFileSize = 4096;
    const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(
      doc.skipped.map((s: { path: string; reason: string }) => `${s.path}: ${s.reason.split(" (")[0]}`),
    ).toEqual([
      "static/loop: symlink loop",
      "out.js: its sourceMappingURL points outside the tree",
      "static/js/vendor.js: 8198 bytes is over the server's maxFileSize",
      "bad.js.map: corrupt source map: not valid JSON",
    ]);
    const manifest = JSON.parse(
      new TextDecoder().decode(
        readZipEntry(
          new Uint8Array(Buffer.concat([...chunkStore(api.state).chunks.values()])),
          "manifest.json",
        ),
      ),
    );
    expect(manifest.files["files/_/_/out.js"].headers).toEqual({});
  });

  test("bad flags: --dist without --release, no files", async () => {
    const dir = build();
    const r = await runCli(["sourcemap", "upload", ".", "acme/web", "--dist", "x"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(21);
    const none = await runCli(["sourcemap", "upload", ".", "acme/web", "--ext", "css"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(none.exitCode).toBe(21);
    expect(none.stderr).toContain("No files with the extensions css");
    expect(api.requests).toEqual([]);
  });
});
