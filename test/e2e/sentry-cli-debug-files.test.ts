/**
 * sentry-cli's debug-file forms run by tracker as `sentry-cli` (issue 31 §4): `debug-files
 * check|find|upload|bundle-jvm`, `dif …`, `upload-dif`, `upload-dsym`, `upload-proguard [--uuid]
 * [--write-properties]`, `dart-symbol-map upload <mapping> <debug-file>`, `code-mappings upload`;
 * three CI scripts of test/fixtures/sentry-cli-scripts run through a `sentry-cli` link, with the
 * real object files of test/fixtures/difs and the mapping of test/fixtures/proguard.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { difStore } from "../fake-api/routes/difs.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { runScript } from "../helpers/sentry-cli-scripts.ts";

const DIFS = join(import.meta.dir, "../fixtures/difs");
const MAPPING = join(import.meta.dir, "../fixtures/proguard/mapping.txt");
/** sentry-cli 3.8.0's UUID of the proguard fixture (test/fixtures/proguard/README.md). */
const PROGUARD_UUID = "76d59355-8459-584e-8759-1d3468a7ae4e";
/** Debug IDs of the fixtures (test/fixtures/difs/README.md). */
const ELF_ID = "ccc66117-0654-ddba-9931-e54e4b07f9a3";
const MACHO_ID = "4c4c446d-5555-3144-a142-de4505af568a";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
const sc = (args: string[], cwd: string) =>
  runCli(["sentry-cli", ...args], { api, token: ciToken(), cwd, env: { SENTRY_ORG: "acme" } });

/** `files` copied from the fixtures to `dest` (relative) under a fresh dir. */
function tree(files: Record<string, string>): string {
  const root = tempDir("tracker-sentry-cli-difs-");
  for (const [dest, src] of Object.entries(files)) {
    mkdirSync(dirname(join(root, dest)), { recursive: true });
    copyFileSync(src, join(root, dest));
  }
  return root;
}

/** The assemble requests to a project: file name → debug ID. */
function assembled(project: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const q of api.requestsTo(`/api/0/projects/acme/${project}/files/difs/assemble/`)) {
    for (const f of Object.values(JSON.parse(q.body) as Record<string, { name: string; debug_id?: string }>))
      out[f.name] = f.debug_id;
  }
  return out;
}

/** The names of the files the fake service stored, sorted. */
const storedNames = () => [...difStore(api.state).difs.values()].map((d) => d.name).sort();

describe("sentry-cli debug-file scripts run unchanged", () => {
  test("Xcode build phase: upload-dsym of the dSYM folder uploads the DWARF file of App.app.dSYM", async () => {
    const root = tree({
      "Build/Products/Release-iphoneos/App.app.dSYM/Contents/Resources/DWARF/App": join(
        DIFS,
        "macho-x86_64.dsym",
      ),
    });
    const r = await runScript("xcode-upload-dsym.sh", {
      SENTRY_URL: api.url,
      SENTRY_AUTH_TOKEN: ciToken(),
      DWARF_DSYM_FOLDER_PATH: join(root, "Build/Products/Release-iphoneos"),
    });
    expect(r.stdout).not.toContain("warning");
    expect(r.exitCode).toBe(0);
    expect(assembled("mobile-app")).toEqual({ App: MACHO_ID });
    expect(storedNames()).toEqual(["App"]);
  });

  test("Gradle/fastlane: upload-proguard --write-properties uploads the mapping and records its UUID", async () => {
    const root = tree({ "app/build/outputs/mapping/release/mapping.txt": MAPPING });
    mkdirSync(join(root, "app/src/main/assets"), { recursive: true });
    const r = await runScript(
      "gradle-upload-proguard.sh",
      { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: ciToken() },
      { cwd: root },
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(assembled("mobile-app")).toEqual({ [`/proguard/${PROGUARD_UUID}.txt`]: undefined });
    expect(readFileSync(join(root, "app/src/main/assets/sentry-debug-meta.properties"), "utf8")).toContain(
      `io.sentry.ProguardUuids=${PROGUARD_UUID}\n`,
    );
  });

  test("native CI: debug-files check, then upload --include-sources of the build dir", async () => {
    const root = tree({ "build/bin/server": join(DIFS, "elf-debug") });
    const r = await runScript(
      "native-debug-files.sh",
      { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: ciToken() },
      { cwd: root },
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(ELF_ID);
    expect(assembled("web")).toMatchObject({ server: ELF_ID });
    expect(storedNames()).toContain("server");
    // The flag is carried out: no "not supported" warning (the fixture's sources are not on this
    // machine, so each is a note and the bundle may hold none).
    expect(r.stderr).not.toContain("not supported yet");
  });
});

describe("sentry-cli debug-file forms", () => {
  test("debug-files check and dif check: the file's debug ID; find: where it is", async () => {
    const root = tree({ "out/libz.so": join(DIFS, "libz.so") });
    for (const form of [["debug-files"], ["dif"]]) {
      const r = await sc([...form, "check", "out/libz.so"], root);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("675929c5-5846-5cfc-879f-b1c862f03e87");
    }
    const found = await sc(["debug-files", "find", "675929c5-5846-5cfc-879f-b1c862f03e87", "out"], root);
    expect(found.exitCode).toBe(0);
    expect(found.stdout).toContain("out/libz.so");
    expect(api.requests).toEqual([]);
  });

  test("upload-dif -o -p <path>: the project's assemble gets the file", async () => {
    const root = tree({ "symbols/libz.so": join(DIFS, "libz.so") });
    const r = await sc(["upload-dif", "-o", "acme", "-p", "web", "symbols"], root);
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(assembled("web")).toEqual({ "libz.so": "675929c5-5846-5cfc-879f-b1c862f03e87" });
  });

  test("upload-proguard --uuid: the given UUID names the upload", async () => {
    const root = tree({ "mapping.txt": MAPPING });
    const uuid = "11111111-2222-3333-4444-555555555555";
    const r = await sc(["upload-proguard", "-p", "mobile-app", "--uuid", uuid, "mapping.txt"], root);
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(assembled("mobile-app")).toEqual({ [`/proguard/${uuid}.txt`]: undefined });
  });

  test("debug-files bundle-jvm --output --debug-id: the source bundle is written", async () => {
    const root = tempDir("tracker-sentry-cli-jvm-");
    mkdirSync(join(root, "src/main/java/com/acme"), { recursive: true });
    writeFileSync(join(root, "src/main/java/com/acme/App.java"), "package com.acme;\nclass App {}\n");
    const id = "a1b2c3d4-e5f6-4711-8899-aabbccddeeff";
    const r = await sc(["debug-files", "bundle-jvm", "--output", "out", "--debug-id", id, "src"], root);
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(root, "out", `${id}.zip`))).toBe(true);
    expect(api.requests).toEqual([]);
  });

  test("dart-symbol-map upload <mapping> <debug-file>: the map goes up under the debug file's ID", async () => {
    const root = tree({ "build/app.so": join(DIFS, "elf-debug") });
    writeFileSync(join(root, "obfuscation.map.json"), JSON.stringify(["MaterialApp", "ex"]));
    const r = await sc(
      ["dart-symbol-map", "upload", "-p", "mobile-app", "obfuscation.map.json", "build/app.so"],
      root,
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(assembled("mobile-app")).toEqual({ "obfuscation.map.json": ELF_ID });
    const one = await sc(["dart-symbol-map", "upload", "obfuscation.map.json"], root);
    expect(one.exitCode).toBe(2);
    expect(one.stderr).toContain("dart-symbol-map upload takes <mapping> <debug-file>");
  });

  test("code-mappings upload --repo --default-branch: the bulk request", async () => {
    const root = tempDir("tracker-sentry-cli-cm-");
    writeFileSync(
      join(root, "mappings.json"),
      JSON.stringify([{ stackRoot: "com/acme/app", sourceRoot: "app/src/main/java/com/acme/app" }]),
    );
    const r = await sc(
      [
        "code-mappings",
        "upload",
        "-p",
        "mobile-app",
        "mappings.json",
        "--repo",
        "acme/android",
        "--default-branch",
        "main",
      ],
      root,
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    const bulk = api.requestsTo("/api/0/organizations/acme/code-mappings/bulk/");
    expect(bulk).toHaveLength(1);
    expect(JSON.parse(bulk[0]?.body ?? "")).toMatchObject({
      project: "mobile-app",
      repository: "acme/android",
      defaultBranch: "main",
      mappings: [{ stackRoot: "com/acme/app", sourceRoot: "app/src/main/java/com/acme/app" }],
    });
  });
});
