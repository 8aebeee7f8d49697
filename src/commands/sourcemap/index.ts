import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { eventOrIssuePositional, globalFlags, ignoreGlobFlag } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** Extensions `sourcemap upload` takes by default. */
export const UPLOAD_EXTS = "js,mjs,cjs,map";
/** Default URL prefix of uploaded files. */
export const URL_PREFIX = "~/";

/** Flags of `sourcemap inject`. */
export interface InjectFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
  readonly ignore?: readonly string[];
}

/** Flags of `sourcemap upload`. */
export interface UploadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly release?: string;
  readonly dist?: string;
  readonly urlPrefix: string;
  readonly stripPrefix?: string;
  readonly urlSuffix?: string;
  readonly ext: string;
  readonly ignore?: readonly string[];
  readonly rewrite: boolean;
  readonly wait: boolean;
  readonly force: boolean;
}

/** Flags of `sourcemap explain`. */
export interface ExplainFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

const injectCommand = buildCommand<InjectFlags, string[], TrackerContext>({
  loader: () => import("./inject.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: { placeholder: "path", brief: "Files or directories", parse: String },
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      dryRun: { kind: "boolean", default: false, brief: "Report what would change; write nothing" },
      ignore: ignoreGlobFlag,
    },
  },
  docs: {
    brief: "Add debug IDs to built JavaScript files and their source maps",
    fullDescription: describe(
      'Gives every .js/.mjs/.cjs file that has a source map (named by its sourceMappingURL comment, else <file>.map next to it) a debug ID derived from the map\'s content: a one-line runtime snippet at the top, a `//# debugId=<id>` comment at the end, and "debug_id"/"debugId" in the map. Running it again changes nothing; files without a map are left alone. The snippet goes after a "use strict" prologue (also behind a licence banner), and each file is rewritten through a fresh temp file renamed over it, keeping its mode (755 stays 755, 444 stays 444). Nothing outside the tree a path names is read or written: symlinks (files, directories, maps) that lead out of it, FIFOs, devices, and files that cannot be read or written are skipped with one note each.\n\n--json prints {"dryRun", "injected": [{"file", "map", "debugId", "changed"}], "unchanged": [{"file", "debugId"}], "skipped": [{"path", "reason"}]}.',
      [
        "tracker sourcemap inject ./dist",
        "tracker sourcemap inject ./dist --ignore 'vendor/**' --dry-run --json",
      ],
    ),
  },
});

const uploadCommand = buildCommand<UploadFlags, string[], TrackerContext>({
  loader: () => import("./upload.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "path",
        brief: "Files or directories, then optionally <org>/<project>",
        parse: String,
      },
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      release: {
        kind: "parsed",
        placeholder: "<version>",
        parse: String,
        optional: true,
        brief: "Associate the files with this release",
      },
      dist: {
        kind: "parsed",
        placeholder: "<dist>",
        parse: String,
        optional: true,
        brief: "Distribution (needs --release)",
      },
      urlPrefix: {
        kind: "parsed",
        placeholder: "<prefix>",
        parse: String,
        default: URL_PREFIX,
        brief: "Prefix of each file's URL",
      },
      stripPrefix: {
        kind: "parsed",
        placeholder: "<prefix>",
        parse: String,
        optional: true,
        brief: "Remove this from each path before the URL prefix is added",
      },
      urlSuffix: {
        kind: "parsed",
        placeholder: "<suffix>",
        parse: String,
        optional: true,
        brief: "Append this to each file's URL (e.g. '?v=3')",
      },
      ext: {
        kind: "parsed",
        placeholder: "<exts>",
        parse: String,
        default: UPLOAD_EXTS,
        brief: "Comma-separated extensions to upload",
      },
      ignore: ignoreGlobFlag,
      rewrite: {
        kind: "boolean",
        default: true,
        brief: "Check maps and add missing debug IDs (--no-rewrite: upload bytes as they are)",
      },
      wait: { kind: "boolean", default: false, brief: "Wait until the service has processed the bundle" },
      force: {
        kind: "boolean",
        default: false,
        brief: "Rebuild the bundle even when the files are unchanged",
      },
    },
  },
  docs: {
    brief: "Upload built files and source maps as an artifact bundle",
    fullDescription: describe(
      `Bundles the files (URL ${URL_PREFIX}<path>, debug IDs from \`tracker sourcemap inject\`), sends only the chunks the service lacks, in parallel, and asks it to assemble them; --wait polls until it is done. An unchanged set of files costs one request. Only regular files inside the tree a path names are bundled: symlinks that lead out of it (a link to /proc or /), FIFOs, devices, unreadable files and files over the service's size limit are skipped with one note each. ${TARGET_HELP}\n\n--json prints {"org", "projects", "release", "dist", "files": [{"path", "url", "type", "debugId", "size"}], "skipped": [{"path", "reason"}], "bundleSize", "checksum", "chunks": {"total", "sent", "skipped"}, "reused", "state", "detail"}.`,
      [
        "tracker sourcemap upload ./dist acme/web",
        "tracker sourcemap upload ./dist acme/web --release 1.4.0 --wait",
        "tracker sourcemap upload ./build --ignore '*.test.js' --json",
      ],
    ),
  },
});

const explainCommand = buildCommand<ExplainFlags, [string, string?], TrackerContext>({
  loader: () => import("./explain.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: eventOrIssuePositional,
  },
  docs: {
    brief: "Explain why an event's JavaScript frames are still minified",
    fullDescription: describe(
      `For each minified frame of the event, says what is missing: no debug ID in the event, no uploaded bundle with its debug ID, a bundle without the file or its map, a release, dist or URL that does not match, or a map that does not cover the line; then prints the command that fixes it. ${TARGET_HELP}\n\n--json prints {"eventId", "org", "project", "release", "dist", "source" ("debug-endpoint" or "bundles"), "frames": [{"absPath", "function", "lineNo", "colNo", "debugId", "cause", "detail"}], "fix"}.`,
      [
        "tracker sourcemap explain 0123456789abcdef0123456789abcdef acme/web",
        "tracker sourcemap explain WEB-4Y --json",
      ],
    ),
  },
});

/** Routes of `tracker sourcemap`. */
export const sourcemapRoutes = buildRouteMap({
  routes: { inject: injectCommand, upload: uploadCommand, explain: explainCommand },
  docs: {
    brief: "Inject debug IDs, upload source maps, explain minified frames",
    fullDescription: describe(
      "Source maps for JavaScript: debug IDs, artifact-bundle uploads, and why an event is still minified.",
      [
        "tracker sourcemap inject ./dist",
        "tracker sourcemap upload ./dist acme/web",
        "tracker sourcemap explain <event-id> acme/web",
      ],
    ),
  },
});
