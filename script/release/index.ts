/**
 * Builds a complete release into one directory: every binary, SHA256SUMS, manifest.json and
 * install.sh (the assets to upload under `v<version>`), plus the npm packages and the Homebrew
 * formula generated from those same checksums.
 *
 *   bun run release [--version 1.2.3] [--release-url <base>] [--out dist/release]
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { DEFAULT_RELEASE_URL } from "../../src/lib/upgrade/release.ts";
import { parseVersion } from "../../src/lib/upgrade/version.ts";
import { buildRelease } from "../build.ts";
import { buildNpmPackages } from "../npm/build-packages.ts";
import { generateFormula } from "./homebrew.ts";

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const args = process.argv.slice(2);
const root = resolve(import.meta.dir, "../..");
const version = parseVersion(option(args, "--version") ?? pkg.version);
const releaseUrl = option(args, "--release-url") ?? DEFAULT_RELEASE_URL;
const outDir = resolve(option(args, "--out") ?? join(root, "dist/release"));
const built = await buildRelease({ outDir, version, releaseUrl });
const npm = buildNpmPackages({ releaseDir: outDir, outDir: join(outDir, "..", "npm"), version });
const formulaPath = join(outDir, "..", "tracker.rb");
writeFileSync(formulaPath, generateFormula({ version, releaseUrl, sums: built.sums }));
process.stderr.write(
  `Release ${version}: upload ${outDir}/* as v${version}; publish ${npm.platforms.length} platform packages, then ${npm.launcher}; commit ${formulaPath} to the tap.\n`,
);
