/**
 * Routes of `tracker debug-files` (alias `dif`). Temporary: the difs-read branch writes this file
 * with `check`; at the merge its route map spreads `debugFilesUploadRoutes` in as well.
 */
import { buildRouteMap } from "@stricli/core";
import { describe } from "../../lib/help.ts";
import { debugFilesUploadRoutes } from "./routes-upload.ts";

/** Routes of `tracker debug-files`. */
export const debugFilesRoutes = buildRouteMap({
  routes: { ...debugFilesUploadRoutes },
  docs: {
    brief: "Find, upload and explain debug information files (native, mobile, JVM symbols)",
    fullDescription: describe(
      "Debug information files: what symbolication of native and JVM crashes needs.",
      [
        "tracker debug-files upload ./symbols acme/native",
        "tracker debug-files find <debug-id> ./symbols",
        "tracker debug-files explain <event-id> acme/native",
      ],
    ),
  },
});
