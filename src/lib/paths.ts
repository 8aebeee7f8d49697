import { join } from "node:path";

/** File name of the single local database inside the config dir. */
export const DB_FILE_NAME = "tracker.db";

/**
 * The config dir: TRACKER_CONFIG_DIR, else $XDG_CONFIG_HOME/tracker-cli, else ~/.config/tracker-cli.
 * Relative values are resolved against cwd so a later chdir cannot move the state.
 */
export function resolveConfigDir(
  env: Record<string, string | undefined>,
  homeDir: string,
  cwd: string,
): string {
  const explicit = env.TRACKER_CONFIG_DIR?.trim();
  if (explicit) return explicit.startsWith("/") ? explicit : join(cwd, explicit);
  const xdg = env.XDG_CONFIG_HOME?.trim();
  if (xdg?.startsWith("/")) return join(xdg, "tracker-cli");
  return join(homeDir, ".config", "tracker-cli");
}

/** Path of the database file in a config dir. */
export function dbPath(configDir: string): string {
  return join(configDir, DB_FILE_NAME);
}
