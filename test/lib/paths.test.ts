import { expect, test } from "bun:test";
import { dbPath, resolveConfigDir } from "../../src/lib/paths.ts";

test("TRACKER_CONFIG_DIR wins; relative values resolve against cwd", () => {
  expect(resolveConfigDir({ TRACKER_CONFIG_DIR: "/state", XDG_CONFIG_HOME: "/xdg" }, "/home/u", "/w")).toBe(
    "/state",
  );
  expect(resolveConfigDir({ TRACKER_CONFIG_DIR: "rel/dir" }, "/home/u", "/w")).toBe("/w/rel/dir");
});

test("then XDG_CONFIG_HOME (absolute only), then ~/.config/tracker-cli", () => {
  expect(resolveConfigDir({ XDG_CONFIG_HOME: "/xdg" }, "/home/u", "/w")).toBe("/xdg/tracker-cli");
  expect(resolveConfigDir({ XDG_CONFIG_HOME: "relative" }, "/home/u", "/w")).toBe(
    "/home/u/.config/tracker-cli",
  );
  expect(resolveConfigDir({ TRACKER_CONFIG_DIR: "  " }, "/home/u", "/w")).toBe("/home/u/.config/tracker-cli");
});

test("the database is one file in the config dir", () => {
  expect(dbPath("/state")).toBe("/state/tracker.db");
});
