import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { difStore } from "../fake-api/routes/difs.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { breakpadSym } from "../fixtures/difs/sym.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const OPTIONS = "/api/0/organizations/acme/chunk-upload/";
const ASSEMBLE = "/api/0/projects/acme/web/files/difs/assemble/";
const ID_A = "de6a1d56c3e74a7eba2eb1cee1c5dd1a1";
const ID_B = "0123456789abcdef0123456789abcdef0";
const ID_Z = "fedcba9876543210fedcba98765432100";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

/** A symbols directory: two .sym files, a text file, and a zip holding a third .sym (deflated). */
async function symbols(): Promise<string> {
  const dir = tempDir();
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "app.sym"), breakpadSym({ id: ID_A, name: "app", codeId: "5f2e0d8c4a" }));
  writeFileSync(
    join(dir, "sub/lib.so.sym"),
    breakpadSym({ id: ID_B, name: "lib.so", arch: "arm64", unwind: false }),
  );
  writeFileSync(join(dir, "README.txt"), "not debug information");
  const zipDir = tempDir();
  writeFileSync(join(zipDir, "zipped.sym"), breakpadSym({ id: ID_Z, name: "zipped", padBytes: 20_000 }));
  const zip = Bun.spawnSync(["zip", "-q", "-9", join(dir, "more.zip"), "zipped.sym"], { cwd: zipDir });
  if (zip.exitCode !== 0) throw new Error(`zip failed: ${zip.stderr}`);
  return dir;
}

function run(args: string[], dir: string, configDir?: string) {
  return runCli(["debug-files", "upload", ...args], {
    api,
    token: USER_TOKEN,
    cwd: dir,
    ...(configDir ? { configDir } : {}),
  });
}

describe("debug-files upload (real CLI)", () => {
  test("fresh upload: options, one assemble for all, the chunks, assemble again; names, debug IDs, zip member", async () => {
    const dir = await symbols();
    const r = await run([".", "acme/web", "--json"], dir);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(
      doc.files.map((f: { path: string; name: string; debugId: string; arch: string; state: string }) => [
        f.path,
        f.name,
        f.debugId,
        f.arch,
        f.state,
      ]),
    ).toEqual([
      ["app.sym", "app.sym", "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1", "x86_64", "created"],
      ["more.zip:zipped.sym", "zipped.sym", "fedcba98-7654-3210-fedc-ba9876543210", "x86_64", "created"],
      ["sub/lib.so.sym", "lib.so.sym", "01234567-89ab-cdef-0123-456789abcdef", "arm64", "created"],
    ]);
    expect(doc.files[0].features).toEqual(["symtab", "debug", "unwind"]);
    expect(doc.files[2].features).toEqual(["symtab", "debug"]);
    expect(api.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      "GET /api/0/organizations/acme/",
      `GET ${OPTIONS}`,
      `POST ${ASSEMBLE}`,
      `POST ${ASSEMBLE}`,
    ]);
    const first = JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "");
    expect(
      Object.values(first)
        .map((f) => (f as { name: string }).name)
        .sort(),
    ).toEqual(["app.sym", "lib.so.sym", "zipped.sym"]);
    expect(first[doc.files[0].checksum]).toEqual({
      name: "app.sym",
      debug_id: "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
      chunks: [doc.files[0].checksum],
    });
    // The server offers gzip: chunks go as file_gzip, all in one request.
    const posts = chunkStore(api.state).posts;
    expect(posts).toHaveLength(1);
    expect(posts[0]?.fields).toEqual(["file_gzip", "file_gzip", "file_gzip"]);
    expect(doc.chunks).toEqual({ total: 3, sent: 3, skipped: 0 });
    // The fake read the debug IDs out of the assembled bytes: the zip member arrived whole.
    const known = [...difStore(api.state).difs.values()].map((d) => d.debugId).sort();
    expect(known).toEqual([
      "01234567-89ab-cdef-0123-456789abcdef",
      "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
      "fedcba98-7654-3210-fedc-ba9876543210",
    ]);
  });

  test("an unchanged re-upload costs one assemble request and no chunk", async () => {
    const dir = await symbols();
    const configDir = tempDir();
    expect((await run([".", "acme/web"], dir, configDir)).exitCode).toBe(0);
    api.reset();
    const s = chunkStore(api.state);
    // The server kept the files (reset cleared the fake's memory, so seed it again with one run).
    expect((await run([".", "acme/web"], dir, tempDir())).exitCode).toBe(0);
    api.requests.length = 0;
    s.posts.length = 0;
    const again = await run([".", "acme/web", "--json"], dir, configDir);
    expect(again.exitCode).toBe(0);
    expect(api.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST ${ASSEMBLE}`]);
    expect(JSON.parse(again.stdout)).toMatchObject({ unchanged: true, chunks: { sent: 0 } });
    expect(s.posts).toEqual([]);
    const human = await run([".", "acme/web"], dir, configDir);
    expect(human.stdout).toContain("All 3 file(s) are on acme/web already; nothing was sent.");
  });

  test("missing-chunk resume: only the chunks the service names are sent, within chunksPerRequest", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "big.sym"), breakpadSym({ id: ID_A, padBytes: 300_000 }));
    const s = chunkStore(api.state);
    Object.assign(s.options, { chunkSize: 64 * 1024, chunksPerRequest: 2, compression: [] });
    const first = await run([".", "acme/web", "--json"], dir);
    expect(first.exitCode).toBe(0);
    const total = JSON.parse(first.stdout).chunks.total as number;
    expect(total).toBe(5);
    expect(s.posts.map((p) => p.names.length).sort()).toEqual([1, 2, 2]);
    expect(s.posts.every((p) => p.fields.every((f) => f === "file"))).toBe(true);
    // The service lost two chunks and the file: the next run sends exactly those two.
    const names = s.posts.flatMap((p) => p.names);
    s.chunks.delete(names[1] as string);
    s.chunks.delete(names[3] as string);
    difStore(api.state).difs.clear();
    s.posts.length = 0;
    const r = await run([".", "acme/web", "--json"], dir);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).chunks).toEqual({ total: 5, sent: 2, skipped: 3 });
    expect(s.posts.flatMap((p) => p.names).sort()).toEqual([names[1] as string, names[3] as string].sort());
  });

  test("--wait polls until every file is ok or error; an error is reported and the exit is non-zero", async () => {
    const dir = await symbols();
    const d = difStore(api.state);
    d.pollsBeforeDone = 1;
    d.failNames.set("lib.so.sym", "Invalid debug information file: bad line record");
    const slept: number[] = [];
    let now = Date.parse("2026-01-15T12:00:00Z");
    const r = await runInProcess(["debug-files", "upload", ".", "acme/web", "--wait", "--json"], {
      env: {
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        TRACKER_CONFIG_DIR: tempDir(),
        TRACKER_PAGER: "",
      },
      cwd: dir,
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    });
    expect(r.exitCode).toBe(30);
    expect(slept).toEqual([1000, 1000]);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { name: string; state: string }) => `${f.name}:${f.state}`)).toEqual([
      "app.sym:ok",
      "zipped.sym:ok",
      "lib.so.sym:error",
    ]);
    expect(r.stderr).toContain("1 file(s) did not process correctly");
    expect(r.stderr).toContain("sub/lib.so.sym: Invalid debug information file: bad line record");
    expect(r.stderr).toContain("Waiting for the service to process 3 file(s)");
    // Polls ask only about the files still processing.
    const bodies = api.requestsTo(ASSEMBLE).map((q) => Object.keys(JSON.parse(q.body)).length);
    expect(bodies).toEqual([3, 3, 3, 3]);
  });

  test("--wait gives up at the server's maxWait and exits non-zero", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "app.sym"), breakpadSym({ id: ID_A }));
    chunkStore(api.state).options.maxWait = 3;
    difStore(api.state).pollsBeforeDone = 100;
    let now = 0;
    const r = await runInProcess(["debug-files", "upload", ".", "acme/web", "--wait"], {
      env: {
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        TRACKER_CONFIG_DIR: tempDir(),
        TRACKER_PAGER: "",
      },
      cwd: dir,
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    });
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("still processing when the wait ran out");
    // Three polls, one "Waiting…" line: a CI log gets one line per 10 s of waiting.
    expect(r.stderr.match(/Waiting for the service/g)).toHaveLength(1);
    expect(r.stdout).toContain("PROCESSING");
    expect(api.requestsTo(ASSEMBLE)).toHaveLength(5);
  });

  test("--dry-run lists what would go with sizes and sends nothing", async () => {
    const dir = await symbols();
    const r = await run([".", "acme/web", "--dry-run", "--json", "--type", "breakpad", "--id", ID_A], dir);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(true);
    expect(doc.requests).toHaveLength(1);
    expect(doc.requests[0]).toMatchObject({ method: "POST", path: ASSEMBLE });
    expect(Object.values(doc.requests[0].body)).toEqual([
      {
        name: "app.sym",
        debug_id: "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
        chunks: [expect.stringMatching(/^[0-9a-f]{40}$/)],
      },
    ]);
    expect(doc.files[0]).toMatchObject({ path: "app.sym", size: expect.any(Number), chunks: 1 });
    expect(api.requests).toEqual([]);
    const human = await run([".", "acme/web", "--dry-run"], dir);
    // The files and their total, then the request as every dry run shows it: method, path, JSON body.
    expect(human.stdout).toMatch(/\n3 file\(s\), [\d.]+ KiB\n/);
    expect(human.stdout).toContain(`\nPOST ${ASSEMBLE}\n{\n  "`);
    expect(human.stderr).toContain("Dry run: nothing was sent.");
  });

  test("filters: --no-unwind keeps files with symbols; --no-debug leaves only unwind info; --id --require-all fails on a missing id", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "unwind-only.sym"), breakpadSym({ id: ID_A, symbols: false }));
    writeFileSync(join(dir, "symbols.sym"), breakpadSym({ id: ID_B, unwind: false }));
    const a = await run([".", "acme/web", "--dry-run", "--json", "--no-debug"], dir);
    expect(JSON.parse(a.stdout).files.map((f: { path: string }) => f.path)).toEqual(["unwind-only.sym"]);
    const b = await run([".", "acme/web", "--dry-run", "--json", "--no-unwind"], dir);
    const docB = JSON.parse(b.stdout);
    expect(docB.files.map((f: { path: string }) => f.path)).toEqual(["symbols.sym"]);
    expect(docB.skipped).toEqual([
      { path: "unwind-only.sym", reason: "only unwind, which the flags leave out (skipped)" },
    ]);
    const c = await run([".", "acme/web", "--dry-run", "--id", ID_A, "--id", ID_Z, "--require-all"], dir);
    expect(c.exitCode).toBe(21);
    expect(c.stderr).toContain("Some debug IDs were not found: fedcba98-7654-3210-fedc-ba9876543210");
  });

  test("a file that is not debug information: skipped in a walk, an error when named; symlinks out of the tree are notes", async () => {
    const dir = await symbols();
    const outside = tempDir();
    writeFileSync(join(outside, "secret.sym"), breakpadSym({ id: ID_Z }));
    symlinkSync(join(outside, "secret.sym"), join(dir, "link.sym"));
    const named = await run(["README.txt", "acme/web"], dir);
    expect(named.exitCode).toBe(21);
    expect(named.stderr).toContain("README.txt is not a debug information file");
    expect(api.requests).toEqual([]);
    const walked = await run([".", "acme/web", "--dry-run", "--json"], dir);
    const doc = JSON.parse(walked.stdout);
    expect(doc.files.map((f: { path: string }) => f.path)).not.toContain("link.sym");
    expect(doc.skipped).toEqual([{ path: "link.sym", reason: "symlink out of the tree (not followed)" }]);
    writeFileSync(join(dir, "broken.sym"), "MODULE Linux x86_64 nothex app\n");
    const corrupt = await run(["broken.sym", "acme/web"], dir);
    expect(corrupt.exitCode).toBe(21);
    expect(corrupt.stderr).toContain("no valid debug identifier");
    const withCorrupt = await run([".", "acme/web", "--dry-run", "--json"], dir);
    expect(JSON.parse(withCorrupt.stdout).skipped[0]).toEqual({
      path: "broken.sym",
      reason: "broken.sym: the MODULE record has no valid debug identifier",
    });
  });

  test("--symbol-maps says it is not supported yet; --include-sources adds no bundle for a Breakpad file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "app.sym"), breakpadSym({ id: ID_A }));
    const r = await run(
      [".", "acme/web", "--dry-run", "--json", "--symbol-maps", "maps", "--include-sources"],
      dir,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("--symbol-maps: BCSymbolMaps");
    expect(r.stderr).toContain("not supported yet");
    expect(r.stderr).not.toContain("--include-sources");
    expect(JSON.parse(r.stdout).files.map((f: { name: string }) => f.name)).toEqual(["app.sym"]);
  });
});
