/**
 * `sourcemap upload` of generated build output against the fake API. The default is a small build
 * (200 files, ~20 MB of maps); BENCH_SOURCEMAP_FILES=2000 BENCH_SOURCEMAP_MB=200 gives issue 27's
 * full size. The warm-up runs upload the bundle, so the timed "unchanged" case measures a
 * re-upload (one assemble request); the `--force` case rebuilds and hashes every run (the server
 * then already has every chunk, as for the legacy CLI's re-upload).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

const FILES = Number(process.env.BENCH_SOURCEMAP_FILES ?? 200);
const TOTAL_MB = Number(process.env.BENCH_SOURCEMAP_MB ?? 20);

/** Writes FILES/2 minified files and their maps (maps carry most of the bytes) under `<configDir>/build`. */
async function generate({ configDir }: { configDir: string }): Promise<{ cwd: string }> {
  const root = join(configDir, "build");
  const pairs = Math.max(1, Math.floor(FILES / 2));
  const mapBytes = Math.floor((TOTAL_MB * 1024 * 1024) / pairs);
  for (let i = 0; i < pairs; i++) {
    const dir = join(root, "static", `chunk-${i % 20}`);
    mkdirSync(dir, { recursive: true });
    const id = `${i.toString(16).padStart(8, "0")}-0000-5000-8000-000000000000`;
    let mappings = "";
    for (let n = 0; mappings.length < mapBytes; n++)
      mappings += `${Bun.hash(`${i}:${n}`).toString(36).slice(0, 6)},`;
    writeFileSync(
      join(dir, `f${i}.js`),
      `function f${i}(){return ${i}}\n//# sourceMappingURL=f${i}.js.map\n//# debugId=${id}\n`,
    );
    writeFileSync(
      join(dir, `f${i}.js.map`),
      JSON.stringify({ version: 3, sources: [`src/f${i}.ts`], names: [], mappings, debug_id: id }),
    );
  }
  return { cwd: root };
}

/** Bench cases of source-map upload. */
export const cases: BenchCase[] = [
  {
    name: `sourcemap upload ${FILES} files/${TOTAL_MB} MB (unchanged)`,
    args: ["sourcemap", "upload", ".", "acme/web", "--json"],
    needsApi: true,
    setup: generate,
    target: { p50Ms: 1000 },
  },
  {
    name: `sourcemap upload ${FILES} files/${TOTAL_MB} MB --force (rebuild)`,
    args: ["sourcemap", "upload", ".", "acme/web", "--json", "--force"],
    needsApi: true,
    setup: generate,
  },
];
