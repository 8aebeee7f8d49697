import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { buildBundle } from "../../../src/lib/sourcemap/bundle.ts";
import { ChunkSpool } from "../../../src/lib/sourcemap/spool.ts";
import { walkFiles } from "../../../src/lib/sourcemap/walk.ts";
import { compressEntry } from "../../../src/lib/sourcemap/zip.ts";
import { tempDir } from "../../helpers/cli.ts";

function sha1(b: Uint8Array): string {
  const h = new Bun.CryptoHasher("sha1");
  h.update(b);
  return h.digest("hex");
}

/** A few maps large enough to go to the workers (≥ 64 KiB), and small JS files that stay inline. */
function tree(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "js"), { recursive: true });
  for (let i = 0; i < 6; i++) {
    let mappings = "";
    for (let n = 0; mappings.length < 150_000 + i * 1000; n++)
      mappings += `${Bun.hash(`${i}:${n}`).toString(36).slice(0, 5)},`;
    writeFileSync(join(dir, "js", `f${i}.js`), `f${i}();\n//# sourceMappingURL=f${i}.js.map\n`);
    writeFileSync(join(dir, "js", `f${i}.js.map`), JSON.stringify({ version: 3, sources: [], mappings }));
  }
  return dir;
}

const OPTS = { org: "acme", projects: ["web"], urlPrefix: "~/", rewrite: true, maxFileSize: 1e9 };

describe("buildBundle", () => {
  test("the same bytes whether entries are deflated in workers or inline, and chunks hash what the file holds", async () => {
    const dir = tree();
    const { files } = walkFiles(["."], { cwd: dir, exts: ["js", "map"] });
    const results = [];
    for (const workers of [0, 2]) {
      const spool = new ChunkSpool(100_000);
      try {
        const built = await buildBundle(files, OPTS, spool, workers);
        const bytes = await Bun.file(spool.path).bytes();
        expect(bytes.length).toBe(built.size);
        expect(sha1(bytes)).toBe(built.checksum);
        expect(spool.chunks.map((c) => sha1(bytes.subarray(c.offset, c.offset + c.size)))).toEqual(
          spool.chunks.map((c) => c.sha1),
        );
        expect(
          spool.chunks.every((c, i) => c.size === (i < spool.chunks.length - 1 ? 100_000 : c.size)),
        ).toBe(true);
        results.push(built.checksum);
      } finally {
        spool.dispose();
      }
    }
    expect(results[0]).toBe(results[1]);
  });
});

describe("compressEntry", () => {
  test("deflates text (libdeflate level 1, raw deflate), stores random and tiny data", () => {
    const text = new TextEncoder().encode("function a(){return 1}\n".repeat(5000));
    const t = compressEntry(text);
    expect(t.method).toBe(8);
    expect(new Uint8Array(inflateRawSync(t.body))).toEqual(text);
    const random = crypto.getRandomValues(new Uint8Array(300_000));
    expect(compressEntry(random)).toEqual({ method: 0, body: random });
    const tiny = new TextEncoder().encode("aaaa");
    expect(compressEntry(tiny).method).toBe(0);
  });
});
