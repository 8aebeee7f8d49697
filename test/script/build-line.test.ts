/** `bun run build` ends by saying what it built (it was silent). */
import { expect, test } from "bun:test";
import { builtLine } from "../../script/build.ts";

test("the line names the path, version, platform and size", () => {
  expect(
    builtLine({ path: "dist/tracker", version: "0.9.0", asset: "tracker-linux-x64", bytes: 62_914_560 }),
  ).toBe("Built dist/tracker: tracker 0.9.0 for tracker-linux-x64, 60.0 MiB");
  expect(builtLine({ path: "out/t", version: "1.0.0", asset: undefined, bytes: 1024 * 1024 })).toBe(
    "Built out/t: tracker 1.0.0 for this platform, 1.0 MiB",
  );
});
