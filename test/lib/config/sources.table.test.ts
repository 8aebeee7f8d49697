/** Issue 32 §0: table tests of how configuration sources are named (`Using acme/web (from …)`). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { describeSources, fileLabel, type Provenance } from "../../../src/lib/config/sources.ts";
import { createTestContext } from "../../helpers/context.ts";

describe("fileLabel", () => {
  const home = "/h/me";
  const rows: [string, string, string][] = [
    ["the global file", join(home, "proj"), join(home, ".sentryclirc")],
    ["in the working directory", join(home, "proj"), join(home, "proj", ".sentryclirc")],
    ["one up", join(home, "proj", "pkg"), join(home, "proj", ".sentryclirc")],
    ["two up", join(home, "proj", "a", "b"), join(home, "proj", ".sentryclirc")],
    ["three up, under home", join(home, "proj", "a", "b", "c"), join(home, "proj", ".sentryclirc")],
    ["below", join(home, "proj"), join(home, "proj", "conf", "sentry.properties")],
    ["far away, outside home", join(home, "proj", "a", "b"), "/etc/sentry/sentry.properties"],
  ];
  const expected = [
    "~/.sentryclirc",
    ".sentryclirc",
    "../.sentryclirc",
    "../../.sentryclirc",
    "~/proj/.sentryclirc",
    "conf/sentry.properties",
    "/etc/sentry/sentry.properties",
  ];
  rows.forEach(([name, cwd, path], i) => {
    test(`${name} → ${expected[i]}`, () => {
      const { ctx } = createTestContext({ cwd, homeDir: home });
      expect(fileLabel(ctx, path)).toBe(expected[i] as string);
    });
  });
});

describe("describeSources", () => {
  const env = (label: string): Provenance => ({ kind: "env", label, path: null });
  const file = (label: string): Provenance => ({ kind: "file", label, path: `/p/${label}` });
  const here: Provenance = { kind: "here", label: "defaults --here", path: "/p" };
  const rows: [Provenance, Provenance, string][] = [
    [env("SENTRY_ORG"), env("SENTRY_PROJECT"), "SENTRY_ORG/SENTRY_PROJECT"],
    [file(".sentryclirc"), file(".sentryclirc"), ".sentryclirc"],
    [here, here, "defaults --here"],
    [env("TRACKER_ORG"), file(".sentryclirc"), "environment and .sentryclirc"],
    [file("~/.sentryclirc"), env("TRACKER_PROJECT"), "environment and ~/.sentryclirc"],
    [file("~/.sentryclirc"), file(".sentryclirc"), "~/.sentryclirc and .sentryclirc"],
    [here, file("sentry.properties"), "defaults --here and sentry.properties"],
  ];
  for (const [org, project, expected] of rows)
    test(`${org.label} + ${project.label} → ${expected}`, () =>
      expect(describeSources(org, project)).toBe(expected));
});
