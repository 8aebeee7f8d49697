/**
 * The sentry-cli table applied to argv (pure): the forms whose tracker commands another branch
 * adds (debug files, ProGuard, Dart symbol maps, code mappings) are checked here by their argv.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/cli.ts";
import { translateSentryCli } from "../../src/lib/sentry-cli/translate.ts";

const NOW = Date.parse("2026-01-15T12:00:00Z");
const t = (argv: string[], env: Record<string, string> = {}) =>
  translateSentryCli(argv, env, NOW, "/nonexistent");

describe("translateSentryCli", () => {
  test.each([
    [
      ["debug-files", "upload", "-o", "acme", "-p", "ios", "--include-sources", "./dSYMs"],
      ["debug-files", "upload", "--include-sources", "./dSYMs"],
    ],
    [
      ["dif", "check", "app.dSYM"],
      ["debug-files", "check", "app.dSYM"],
    ],
    [
      ["debug-files", "bundle-jvm", "--output", "out", "src"],
      ["debug-files", "bundle-jvm", "--output", "out", "src"],
    ],
    [
      ["upload-dif", "--wait", "build/"],
      ["debug-files", "upload", "--wait", "build/"],
    ],
    [
      ["upload-dsym", "DerivedData"],
      ["debug-files", "upload", "DerivedData"],
    ],
    [
      ["upload-proguard", "--uuid", "abc", "mapping.txt"],
      ["proguard", "upload", "--uuid", "abc", "mapping.txt"],
    ],
    [
      ["dart-symbol-map", "upload", "map.json", "app.so"],
      ["dart-symbol-map", "upload", "map.json", "--debug-file", "app.so"],
    ],
    [
      ["code-mappings", "upload", "mappings.json"],
      ["code-mappings", "upload", "mappings.json"],
    ],
  ])("%p becomes tracker %p (words after the form's as given)", (argv, out) => {
    const r = t(argv);
    expect(r.argv).toEqual(out);
  });

  test("-o/-p of a passed-through form become the target variables", () => {
    expect(t(["upload-dif", "-o", "acme", "-p", "ios", "x"]).env).toEqual({
      TRACKER_ORG: "acme",
      TRACKER_PROJECT: "ios",
    });
  });

  test("globals: token, URL (before the command), headers appended to the environment's, log level", () => {
    const r = t(
      [
        "--url",
        "https://sentry.example.com",
        "--auth-token",
        "tok",
        "--header",
        "A: 1",
        "--log-level=DEBUG",
        "releases",
        "list",
      ],
      { SENTRY_CUSTOM_HEADERS: "B: 2" },
    );
    expect(r.env).toEqual({
      TRACKER_URL: "https://sentry.example.com",
      TRACKER_AUTH_TOKEN: "tok",
      SENTRY_CUSTOM_HEADERS: "B: 2\nA: 1",
      TRACKER_LOG_LEVEL: "debug",
    });
    expect(r.argv).toEqual(["release", "list"]);
  });

  test("--url after the command is the release's URL (sentry-cli reads the global one only before it)", () => {
    const r = t(["releases", "new", "1.0", "--url", "https://changelog.example.com"]);
    expect(r.argv).toEqual(["release", "create", "1.0", "--url", "https://changelog.example.com"]);
    expect(r.env.TRACKER_URL).toBeUndefined();
  });

  test("deploys new -t: --finished now, --started that many seconds before; repeated -m joined by newlines", () => {
    const end = NOW / 1000;
    expect(t(["deploys", "new", "-r", "1.0", "-e", "prod", "-t", "30"]).argv).toEqual([
      "release",
      "deploy",
      "1.0",
      "--env",
      "prod",
      "--finished",
      String(end),
      "--started",
      String(end - 30),
    ]);
    expect(t(["send-event", "-m", "a", "-m", "b", "-E", "staging"]).argv).toEqual([
      "event",
      "send",
      "-m",
      "a\nb",
      "--env",
      "staging",
    ]);
  });

  test("sourcemaps upload: sentry-cli's default extensions; --ext values joined without dots; -r/-d/-u", () => {
    expect(t(["sourcemaps", "upload", "dist"]).argv).toEqual([
      "sourcemap",
      "upload",
      "dist",
      "--ext",
      "js,cjs,mjs,map,jsbundle,bundle",
    ]);
    expect(
      t(["sourcemaps", "upload", "-x", ".js", "--ext=map", "-r", "1.0", "-d", "7", "-u", "~/s", "dist"]).argv,
    ).toEqual([
      "sourcemap",
      "upload",
      "dist",
      "--ext",
      "js,map",
      "--release",
      "1.0",
      "--dist",
      "7",
      "--url-prefix",
      "~/s",
    ]);
  });

  test("issues list -s/--query: one tracker query; SENTRY_ALLOW_FAILURE=true and --silent", () => {
    expect(
      t(["issues", "list", "-s", "unresolved", "--query", "level:error", "--max-rows", "5"]).argv,
    ).toEqual(["issue", "list", "-n", "5", "-q", "is:unresolved level:error"]);
    const r = t(["--silent", "info"], { SENTRY_ALLOW_FAILURE: "true" });
    expect([r.quiet, r.allowFailure, r.env.TRACKER_LOG_LEVEL]).toEqual([true, true, "error"]);
  });
});

test("--wait-for <secs> is tracker's --wait (its value read, not passed on)", () => {
  expect(
    translateSentryCli(
      ["sourcemaps", "upload", "--wait-for", "60", "-x", "js", "dist"],
      {},
      NOW,
      "/nonexistent",
    ).argv,
  ).toEqual(["sourcemap", "upload", "dist", "--wait", "--ext", "js"]);
});

test("deploys new without --release: a usage error naming the form", () => {
  expect(() => t(["deploys", "new", "-e", "prod"])).toThrow("sentry-cli deploys new needs --release.");
});

test("set-commits --auto --ignore-missing (as build plugins send it): tracker's --auto alone; with --local kept", () => {
  expect(
    t(["releases", "set-commits", "1.0", "--auto", "--ignore-missing", "--initial-depth", "5"]).argv,
  ).toEqual(["release", "set-commits", "1.0", "--auto"]);
  expect(
    translateSentryCli(
      ["releases", "set-commits", "1.0", "--local", "--ignore-missing"],
      {},
      NOW,
      "/nonexistent",
    ).argv,
  ).toEqual(["release", "set-commits", "1.0", "--local", "--ignore-missing"]);
});

test("--ignore-file: each pattern becomes --ignore (comments, blanks, slashes dropped); ! and FIFOs refused", () => {
  const dir = tempDir();
  writeFileSync(join(dir, ".sentryignore"), "# build junk\n\nnode_modules/\n/*.test.js\n");
  const r = translateSentryCli(
    ["sourcemaps", "upload", "-I", ".sentryignore", "-x", "js", "dist"],
    {},
    NOW,
    dir,
  );
  expect(r.argv).toEqual([
    "sourcemap",
    "upload",
    "dist",
    "--ext",
    "js",
    "--ignore",
    "node_modules",
    "--ignore",
    "*.test.js",
  ]);
  writeFileSync(join(dir, "neg"), "!keep.js\n");
  expect(() =>
    translateSentryCli(["sourcemaps", "upload", "--ignore-file", "neg", "dist"], {}, NOW, dir),
  ).toThrow("negated patterns (!keep.js) are not supported");
  Bun.spawnSync(["mkfifo", join(dir, "pipe")]);
  expect(() =>
    translateSentryCli(["sourcemaps", "upload", "--ignore-file", "pipe", "dist"], {}, NOW, dir),
  ).toThrow("not a regular file");
});

test("--strip-prefix/--strip-common-prefix (source paths inside maps in sentry-cli) never change tracker's file URLs", () => {
  expect(
    t(["sourcemaps", "upload", "--strip-prefix", "dist/", "--strip-common-prefix", "-x", "js", "."]).argv,
  ).toEqual(["sourcemap", "upload", ".", "--ext", "js"]);
});
