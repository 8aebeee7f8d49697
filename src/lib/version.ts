import pkg from "../../package.json" with { type: "json" };

// Set with `bun build --define` by script/build.ts so release builds (and test builds of "other"
// versions) carry their own version; source runs fall back to package.json.
declare const TRACKER_BUILD_VERSION: string | undefined;

/** The CLI's own version: the build-time override, else package.json's version. */
export const VERSION: string =
  typeof TRACKER_BUILD_VERSION === "string" ? TRACKER_BUILD_VERSION : pkg.version;
