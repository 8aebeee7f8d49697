/**
 * The upload pipeline sends each object's own byte range: a fat (universal) file goes as one file
 * per slice (the service refuses a multi-architecture object, API.md §21.3). The walker gives a
 * fat Mach-O's slices as objects with their offsets; here the ranges are built by hand.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { uploadDifs, type DifUploadItem } from "../../../src/lib/debug-files/upload.ts";
import { chunkStore } from "../../fake-api/routes/chunks.ts";
import { difStore } from "../../fake-api/routes/difs.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { breakpadSym } from "../../fixtures/difs/sym.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

/** A fat file: the universal header naming two slices, then each slice's bytes at its offset. */
function fatFile(): { path: string; slices: { offset: number; size: number; id: string; arch: string }[] } {
  const a = new TextEncoder().encode(
    breakpadSym({ id: "AAAAAAAA00004000800000000000000A0", arch: "x86_64" }),
  );
  const b = new TextEncoder().encode(breakpadSym({ id: "BBBBBBBB00004000800000000000000B0", arch: "arm64" }));
  const header = new Uint8Array(4096);
  new DataView(header.buffer).setUint32(0, 0xcafebabe, false);
  new DataView(header.buffer).setUint32(4, 2, false);
  const bytes = new Uint8Array(header.length + a.length + b.length);
  bytes.set(header);
  bytes.set(a, header.length);
  bytes.set(b, header.length + a.length);
  const path = join(tempDir(), "App");
  writeFileSync(path, bytes);
  return {
    path,
    slices: [
      { offset: header.length, size: a.length, id: "aaaaaaaa-0000-4000-8000-00000000000a", arch: "x86_64" },
      {
        offset: header.length + a.length,
        size: b.length,
        id: "bbbbbbbb-0000-4000-8000-00000000000b",
        arch: "arm64",
      },
    ],
  };
}

function item(
  path: string,
  offset: number,
  size: number,
  debugId: string | null,
  arch: string,
): DifUploadItem {
  return {
    path: "App",
    name: "App",
    debugId,
    format: "macho",
    arch,
    features: ["symtab"],
    source: path,
    offset,
    size,
  };
}

describe("uploadDifs: byte ranges", () => {
  test("each slice of a fat file is its own file on the service; the whole fat file is refused", async () => {
    const { path, slices } = fatFile();
    const { ctx } = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const report = await uploadDifs(
      ctx,
      "acme",
      "web",
      slices.map((s) => item(path, s.offset, s.size, s.id, s.arch)),
      { wait: true },
    );
    expect(report.files.map((f) => [f.arch, f.state, f.size])).toEqual([
      ["x86_64", "ok", slices[0]?.size as number],
      ["arm64", "ok", slices[1]?.size as number],
    ]);
    // The service read each slice's debug ID from the bytes it received: the slices arrived alone.
    expect([...difStore(api.state).difs.values()].map((d) => d.debugId)).toEqual(slices.map((s) => s.id));
    const sent = [...chunkStore(api.state).chunks.values()];
    expect(sent.map((c) => c.length).sort()).toEqual(slices.map((s) => s.size).sort());

    const whole = await uploadDifs(
      ctx,
      "acme",
      "web",
      [item(path, 0, Bun.file(path).size, null, "universal")],
      { wait: true },
    );
    expect(whole.files[0]).toMatchObject({
      state: "error",
      detail: "Object contains 2 architectures (1 expected)",
    });
  });
});
