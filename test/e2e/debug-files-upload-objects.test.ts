/**
 * `debug-files upload` of the real object fixtures (ELF, Mach-O thin, universal and dSYM, PE, PDB,
 * Portable PDB, wasm, a source bundle): every object goes to assemble under sentry-cli's debug ID
 * (test/fixtures/difs/sentry-cli-check.json), and a universal Mach-O as one file per architecture
 * (the service refuses objects with several, API.md §21.3).
 */
import { expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const FIXTURES = resolve(import.meta.dir, "../fixtures/difs");
const ASSEMBLE = "/api/0/projects/acme/web/files/difs/assemble/";
const RECORDED = JSON.parse(readFileSync(join(FIXTURES, "sentry-cli-check.json"), "utf8")) as Record<
  string,
  { variants: { debug_id: string; arch: string }[]; features: string; is_usable: boolean }
>;

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

test("a directory of object files: each usable object assembled under sentry-cli's debug ID; fat Mach-O split", async () => {
  const dir = tempDir();
  const names = readdirSync(FIXTURES).filter((f) => f in RECORDED);
  for (const f of names) copyFileSync(join(FIXTURES, f), join(dir, f));
  const r = await runCli(["debug-files", "upload", ".", "acme/web", "--json"], {
    api,
    token: USER_TOKEN,
    cwd: dir,
  });
  expect(r.exitCode).toBe(0);
  const first = api.requestsTo(ASSEMBLE, "POST")[0];
  const body = JSON.parse(first?.body ?? "{}") as Record<string, { name: string; debug_id?: string }>;
  const sent = Object.values(body).map((f) => `${f.name} ${f.debug_id ?? "-"}`);
  // What sentry-cli reports per fixture and architecture, for the usable ones with a debug ID.
  const expected = names.flatMap((f) => {
    const rec = RECORDED[f] as (typeof RECORDED)[string];
    if (!rec.is_usable) return [];
    return rec.variants.filter((v) => !/^0{8}-/.test(v.debug_id)).map((v) => `${f} ${v.debug_id}`);
  });
  // Identical bytes go once (the x86_64 slice of the universal binary is the thin file's twin),
  // so compare debug IDs: every one sentry-cli reports is sent, and nothing else.
  const ids = (list: string[]) => [...new Set(list.map((x) => x.split(" ")[1]))].sort();
  expect(ids(sent)).toEqual(ids(expected));
  // The universal Mach-O goes as its slices: never the whole file's bytes.
  const fatSha = new Bun.CryptoHasher("sha1").update(readFileSync(join(FIXTURES, "macho-fat"))).digest("hex");
  expect(Object.keys(body)).not.toContain(fatSha);
  const fatEntries = Object.values(body).filter((f) => f.name === "macho-fat");
  expect(fatEntries.length).toBeGreaterThan(0);
  const fat = RECORDED["macho-fat"] as (typeof RECORDED)[string];
  for (const e of fatEntries) expect(fat.variants.map((v) => v.debug_id)).toContain(e.debug_id as string);
  // Every object found is reported, the twins too.
  expect(JSON.parse(r.stdout).files.length).toBe(expected.length);
});
