import { join } from "node:path";

/** Default directory the install script puts the binary in, under the home directory. */
export const DEFAULT_INSTALL_SUBDIR = join(".tracker", "bin");

/** The install script's directory: TRACKER_INSTALL_DIR (settings.installDir), else ~/.tracker/bin. */
export function installDir(settings: { installDir: string | undefined }, homeDir: string): string {
  const explicit = settings.installDir;
  return explicit ? explicit.replace(/\/+$/, "") || "/" : join(homeDir, DEFAULT_INSTALL_SUBDIR);
}
