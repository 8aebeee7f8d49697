/**
 * Where releases live and how to read them: `<base>/download/v<version>/<asset>` for one version,
 * `<base>/latest/download/<asset>` (a redirect, no rate-limited API) for the newest, and a
 * `manifest.json` in every release naming its version and each asset's sha256.
 */
import { readCappedText, releaseFetch } from "./transport.ts";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { UpgradeError } from "../errors.ts";
import { isVersion } from "./version.ts";

// Set with `bun build --define` by script/build.ts (`--release-url`), so a fork or mirror can ship
// binaries that upgrade from its own location; TRACKER_RELEASE_URL still wins at run time.
declare const TRACKER_RELEASE_BASE_URL: string | undefined;

/** The release location compiled into this binary. */
export const DEFAULT_RELEASE_URL: string =
  typeof TRACKER_RELEASE_BASE_URL === "string" && TRACKER_RELEASE_BASE_URL
    ? TRACKER_RELEASE_BASE_URL
    : "https://github.com/tracker-cli/tracker/releases";

/** npm package name of the launcher package. */
export const NPM_PACKAGE = "tracker-cli";
/** Homebrew formula (tap-qualified) that installs tracker. */
export const BREW_FORMULA = "tracker-cli/tap/tracker";
/** File name of the release manifest. */
export const MANIFEST_NAME = "manifest.json";
/** File name of the checksum list (`<sha256>  <asset>` lines, as sha256sum prints them). */
export const CHECKSUMS_NAME = "SHA256SUMS";

/** How long to wait for the manifest before calling the release server unreachable. */
export const MANIFEST_TIMEOUT_MS = 30_000;

/** The release base URL in effect: TRACKER_RELEASE_URL, else the compiled-in default. */
export function releaseBaseUrl(ctx: Pick<TrackerContext, "settings">): string {
  return (ctx.settings.releaseUrl ?? DEFAULT_RELEASE_URL).replace(/\/+$/, "");
}

/** URL of an asset of one release. */
export function releaseAssetUrl(base: string, version: string, asset: string): string {
  return `${base}/download/v${version}/${asset}`;
}

/** URL of an asset of the newest release (served as a redirect to the versioned URL). */
export function latestAssetUrl(base: string, asset: string): string {
  return `${base}/latest/download/${asset}`;
}

const Sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lower-case hex digits"));

/** Schema of manifest.json: `{"version": "1.2.3", "assets": {"tracker-linux-x64": "<sha256>", ...}}`. */
export const ReleaseManifestSchema = v.object({
  version: v.pipe(v.string(), v.check(isVersion, "version must be semver without a leading v")),
  assets: v.record(v.string(), Sha256),
});
/** A parsed release manifest. */
export type ReleaseManifest = v.InferOutput<typeof ReleaseManifestSchema>;

/** Builds the manifest of a release from its version and asset checksums (keys sorted, so output is stable). */
export function buildManifest(version: string, sums: Readonly<Record<string, string>>): ReleaseManifest {
  const assets: Record<string, string> = {};
  for (const name of Object.keys(sums).sort()) assets[name] = sums[name] as string;
  return { version, assets };
}

/** Formats SHA256SUMS text: one `<sha256>  <name>` line per asset, sorted by name. */
export function formatChecksums(sums: Readonly<Record<string, string>>): string {
  return Object.keys(sums)
    .sort()
    .map((name) => `${sums[name]}  ${name}\n`)
    .join("");
}

/** Parses SHA256SUMS text (`<sha256>  <name>` or `<sha256> *<name>`); malformed lines are an error. */
export function parseChecksums(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line.trim());
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is malformed: '${line}'`);
    out[m[2] as string] = m[1] as string;
  }
  return out;
}

/** Describes a failed fetch without leaking internals: the error's message, or its name. */
export function describeFetchFailure(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return "the request timed out";
    return err.message || err.name;
  }
  return String(err);
}

/**
 * Reads the manifest of the newest release (version undefined) or of one version.
 * Unknown version → `version_not_found`; unreachable server, bad status or bad JSON → `network_error`.
 */
export async function fetchManifest(
  ctx: Pick<TrackerContext, "settings" | "fetch" | "log" | "env">,
  version?: string,
): Promise<ReleaseManifest> {
  const base = releaseBaseUrl(ctx);
  const url = version ? releaseAssetUrl(base, version, MANIFEST_NAME) : latestAssetUrl(base, MANIFEST_NAME);
  ctx.log.debug(`Reading release manifest ${url}`);
  let res: Response;
  try {
    res = await releaseFetch(ctx, url, MANIFEST_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof UpgradeError) throw err;
    throw new UpgradeError(
      "network_error",
      `Could not reach the release server at ${base}: ${describeFetchFailure(err)}.`,
      "Check your network connection, or set TRACKER_RELEASE_URL to a reachable mirror.",
      { connection: true },
    );
  }
  if (res.status === 404 && version) {
    await res.body?.cancel();
    throw new UpgradeError(
      "version_not_found",
      `Version ${version} of tracker was not found at ${base}.`,
      "Check the version number, or run `tracker upgrade` without a version to get the latest.",
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpgradeError(
      "network_error",
      `The release server answered ${res.status} for ${url}.`,
      "Try again later, or set TRACKER_RELEASE_URL to a reachable mirror.",
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(await readCappedText(res, `release manifest at ${url}`));
  } catch (err) {
    if (err instanceof UpgradeError) throw err;
    throw new UpgradeError(
      "network_error",
      `The release manifest at ${url} could not be read: ${describeFetchFailure(err)}.`,
    );
  }
  const parsed = v.safeParse(ReleaseManifestSchema, body);
  if (!parsed.success) {
    throw new UpgradeError(
      "network_error",
      `The release manifest at ${url} is malformed (${parsed.issues[0]?.message ?? "invalid"}).`,
      "The release location may not be a tracker release; check TRACKER_RELEASE_URL.",
    );
  }
  if (version && parsed.output.version !== version) {
    throw new UpgradeError(
      "version_not_found",
      `The release at ${url} is version ${parsed.output.version}, not ${version}.`,
      "The release location is inconsistent; check TRACKER_RELEASE_URL.",
    );
  }
  return parsed.output;
}
