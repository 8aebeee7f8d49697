#!/usr/bin/env node
// The `tracker` command of the npm package. The real program is a standalone binary shipped in a
// per-platform package (an optional dependency that npm installs only on a matching os/cpu/libc);
// this launcher finds it and runs it with the same arguments, stdio and exit code. No postinstall
// script and no download: installs work offline and with --ignore-scripts.
"use strict";
const { spawnSync } = require("node:child_process");

// Filled in by script/npm/build-packages.ts: "<os>-<arch>[-musl]" -> package name.
const PACKAGES = __PACKAGES__;

function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    // glibc reports its version here; musl does not.
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

const os = process.platform === "win32" ? "windows" : process.platform;
const key = `${os}-${process.arch}${isMusl() ? "-musl" : ""}`;
const pkg = PACKAGES[key];
if (!pkg) {
  process.stderr.write(
    `Error: tracker has no binary for ${key}. Supported: ${Object.keys(PACKAGES).join(", ")}.\n`,
  );
  process.exit(1);
}

let binary;
try {
  binary = require.resolve(`${pkg}/bin/tracker${os === "windows" ? ".exe" : ""}`);
} catch {
  process.stderr.write(
    `Error: the package ${pkg} (the tracker binary for ${key}) is not installed.\n\n` +
      "Reinstall without disabling optional dependencies: npm install -g tracker-cli\n",
  );
  process.exit(1);
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  process.stderr.write(`Error: could not start ${binary}: ${result.error.message}\n`);
  process.exit(1);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
