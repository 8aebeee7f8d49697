import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENT = "0123456789abcdef0123456789abcdef";
const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";
const ABS = "https://cdn.example.com/static/js/app.min.js";

const api = useFakeApi({ afterReset: (a) => a.state.store.delete("chunks") });

function seedEvent(
  opts: { debugId?: string; release?: string; dist?: string; errors?: unknown[] } = {},
): void {
  const event = {
    eventID: EVENT,
    title: "Error: boom",
    platform: "javascript",
    tags: [
      ...(opts.release ? [{ key: "release", value: opts.release }] : []),
      ...(opts.dist ? [{ key: "dist", value: opts.dist }] : []),
    ],
    errors: opts.errors ?? [],
    entries: [
      {
        type: "exception",
        data: {
          values: [
            {
              type: "Error",
              value: "boom",
              stacktrace: {
                frames: [
                  { absPath: "node:internal/x", function: "run", lineNo: 1, colNo: 1, inApp: false },
                  { absPath: ABS, function: "a", lineNo: 1, colNo: 42, inApp: true, data: {} },
                ],
              },
            },
          ],
        },
      },
      ...(opts.debugId
        ? [
            {
              type: "debugmeta",
              data: { images: [{ type: "sourcemap", code_file: ABS, debug_id: opts.debugId }] },
            },
          ]
        : []),
    ],
  };
  const s = chunkStore(api.state);
  s.events.set(`web/${EVENT}`, event);
  s.noDebugEndpoint = true;
}

/** Uploads a build through the CLI and marks its bundle processed. */
async function upload(files: Record<string, string>, args: string[] = []): Promise<void> {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = await runCli(["sourcemap", "upload", ".", "acme/web", ...args], {
    api,
    token: USER_TOKEN,
    cwd: dir,
  });
  expect(r.exitCode).toBe(0);
  for (const b of chunkStore(api.state).bundles.values()) b.state = "ok";
  api.reset();
}

const injected = `a();\n//# sourceMappingURL=app.min.js.map\n//# debugId=${ID}\n`;
const map = JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], debug_id: ID });

async function explain(): Promise<{ doc: Record<string, unknown>; frame: Record<string, unknown> }> {
  const r = await runCli(["sourcemap", "explain", EVENT, "acme/web", "--json"], { api, token: USER_TOKEN });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc.frames).toHaveLength(1);
  return { doc, frame: doc.frames[0] };
}

describe("sourcemap explain (real CLI, without the debug endpoint)", () => {
  test("no debug ID in the event: inject, upload, deploy", async () => {
    seedEvent();
    const { doc, frame } = await explain();
    expect(frame).toMatchObject({ absPath: ABS, lineNo: 1, colNo: 42, debugId: null, cause: "no_debug_id" });
    expect(doc.source).toBe("bundles");
    expect(doc.fix).toStartWith(
      "tracker sourcemap inject <build-dir> && tracker sourcemap upload <build-dir> acme/web",
    );
  });

  test("a debug ID with no uploaded bundle", async () => {
    seedEvent({ debugId: ID });
    const { doc, frame } = await explain();
    expect(frame).toMatchObject({ debugId: ID, cause: "no_bundle" });
    expect(doc.fix).toBe("tracker sourcemap upload <build-dir> acme/web");
  });

  test("a bundle without the map", async () => {
    await upload({ "app.min.js": injected, "app.min.js.map": map }, ["--ext", "js"]);
    seedEvent({ debugId: ID });
    const { frame } = await explain();
    expect(frame).toMatchObject({
      cause: "bundle_missing_file",
      detail: expect.stringContaining("not its source map"),
    });
  });

  test("a file and its map in two bundles with the same debug ID are not missing", async () => {
    await upload({ "app.min.js": injected }, ["--ext", "js"]);
    await upload({ "app.min.js.map": map }, ["--ext", "map"]);
    expect(chunkStore(api.state).bundles.size).toBe(2);
    seedEvent({ debugId: ID });
    const { frame } = await explain();
    expect(frame).toMatchObject({ cause: "not_applied" });
  });

  test("the map does not cover the line", async () => {
    await upload({ "app.min.js": injected, "app.min.js.map": map });
    seedEvent({
      debugId: ID,
      errors: [{ type: "js_invalid_sourcemap_location", data: { url: ABS, row: 1, column: 42 } }],
    });
    const { frame } = await explain();
    expect(frame).toMatchObject({ cause: "map_not_covering", detail: expect.stringContaining("line 1:42") });
  });

  test("release upload with another dist", async () => {
    await upload({ "app.min.js": "a();\n" }, [
      "--release",
      "1.4.0",
      "--dist",
      "a",
      "--url-prefix",
      "~/static/js",
    ]);
    seedEvent({ release: "1.4.0", dist: "b" });
    const { doc, frame } = await explain();
    expect(frame).toMatchObject({ cause: "dist_mismatch" });
    expect(doc.fix).toBe("tracker sourcemap upload <build-dir> acme/web --release 1.4.0 --dist b");
  });

  test("release upload under another URL: the --url-prefix that matches", async () => {
    await upload({ "app.min.js": "a();\n" }, ["--release", "1.4.0"]);
    seedEvent({ release: "1.4.0" });
    const { doc, frame } = await explain();
    expect(frame).toMatchObject({
      cause: "url_mismatch",
      detail: "uploaded as ~/app.min.js, but the event asks for ~/static/js/app.min.js",
    });
    expect(doc.fix).toBe(
      "tracker sourcemap upload <build-dir> acme/web --release 1.4.0 --url-prefix '~/static/js/'",
    );
  });

  test("uploads only for another release", async () => {
    await upload({ "app.min.js": "a();\n" }, ["--release", "1.3.0"]);
    seedEvent({ release: "1.4.0" });
    const { frame } = await explain();
    expect(frame).toMatchObject({
      cause: "release_mismatch",
      detail: expect.stringContaining("newest upload is for 1.3.0"),
    });
  });
});

test("frames without a debug ID ask the release's listings once, however many frames there are", async () => {
  await upload({ "app.min.js": "a();\n" }, ["--release", "1.4.0"]);
  seedEvent({ release: "1.4.0" });
  const event = chunkStore(api.state).events.get(`web/${EVENT}`) as {
    entries: { data: { values: { stacktrace: { frames: unknown[] } }[] } }[];
  };
  const frames = event.entries[0]?.data.values[0]?.stacktrace.frames ?? [];
  frames.push({
    absPath: `${ABS.replace("app", "vendor")}`,
    function: "b",
    lineNo: 1,
    colNo: 7,
    inApp: true,
  });
  const r = await runCli(["sourcemap", "explain", EVENT, "acme/web", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout).frames).toHaveLength(2);
  const asked = (part: string) => api.requests.filter((q) => q.path.includes(part)).length;
  expect(asked("/releases/1.4.0/files/")).toBe(1);
  expect(asked("/files/artifact-bundles/")).toBe(1);
});

describe("sourcemap explain (with the debug endpoint)", () => {
  test("the service's answer is used; human output ends with the fix", async () => {
    seedEvent({ debugId: ID });
    const s = chunkStore(api.state);
    s.noDebugEndpoint = false;
    const frame = (debugId: string | null) => ({
      debug_id_process: {
        debug_id: debugId,
        uploaded_source_file_with_correct_debug_id: false,
        uploaded_source_map_with_correct_debug_id: false,
      },
      release_process: null,
    });
    s.debugAnswers.set(EVENT, {
      release: null,
      dist: null,
      exceptions: [{ frames: [frame(null), frame(ID)] }],
    });
    const r = await runCli(["sourcemap", "explain", EVENT, "acme/web"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `Event ${EVENT} (acme/web): 1 minified frame\n  a  ${ABS}:1:42\n    no_bundle: no uploaded bundle has debug ID ${ID}\n`,
    );
    expect(r.stderr).toBe("Fix: tracker sourcemap upload <build-dir> acme/web\n");
    expect(api.requests.some((q) => q.path.includes("artifact-bundles"))).toBe(false);
  });
});

describe("sourcemap explain (with the debug endpoint), release mismatch", () => {
  test("uploads only for another release are said, though the service's answer has no such cause", async () => {
    await upload({ "app.min.js": "a();\n" }, ["--release", "1.3.0"]);
    seedEvent({ release: "1.4.0" });
    const s = chunkStore(api.state);
    s.noDebugEndpoint = false;
    s.debugAnswers.set(EVENT, {
      release: "1.4.0",
      dist: null,
      exceptions: [
        {
          frames: [
            { debug_id_process: null, release_process: null },
            {
              debug_id_process: { debug_id: null },
              release_process: {
                abs_path: ABS,
                matching_source_file_names: [],
                source_file_lookup_result: "unsuccessful",
                source_map_lookup_result: "unsuccessful",
              },
            },
          ],
        },
      ],
    });
    const { frame } = await explain();
    expect(frame).toMatchObject({
      cause: "release_mismatch",
      detail: expect.stringContaining("newest upload is for 1.3.0"),
    });
  });
});

test("an issue reference explains the issue's latest event", async () => {
  const r = await runCli(["sourcemap", "explain", "acme/WEB-4Y", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc).toMatchObject({ eventId: "07697d1ebd58f5b907697d1ebd58f5b9", org: "acme", project: "web" });
  expect(doc.frames.length).toBeGreaterThan(0);
  expect(doc.frames.every((f: { cause: string }) => f.cause === "no_debug_id")).toBe(true);
});
