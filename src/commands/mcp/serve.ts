import { basename, resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { writeJson } from "../../lib/output.ts";
import { parseTarget } from "../../lib/resolve/target.ts";
import { ValidationError } from "../../lib/errors.ts";
import type { McpFlags } from "./index.ts";

/** The command and arguments an MCP client starts this tracker with. */
export function mcpLaunch(
  execPath: string,
  entry: string | undefined,
  args: string[],
): {
  command: string;
  args: string[];
} {
  // Run from source (`bun src/bin.ts`), the executable is Bun and the script comes first.
  const fromSource = /^bun(\.exe)?$/i.test(basename(execPath)) && entry !== undefined;
  return fromSource ? { command: execPath, args: [resolve(entry), ...args] } : { command: execPath, args };
}

export default async function mcp(this: TrackerContext, flags: McpFlags, target?: string): Promise<void> {
  const parsed = parseTarget(target);
  if (parsed.kind === "project-search") {
    throw new ValidationError(
      `tracker mcp needs <org>/<project> or <org>/ as its target, got '${parsed.project}'.`,
      "target",
    );
  }
  const org = parsed.kind === "none" ? undefined : parsed.org;
  const project = parsed.kind === "explicit" ? parsed.project : undefined;
  if (flags.printConfig) {
    const args = ["mcp", ...(org ? [project ? `${org}/${project}` : `${org}/`] : [])];
    if (flags.allowWrites) args.push("--allow-writes");
    writeJson(this, { mcpServers: { tracker: mcpLaunch(this.execPath, process.argv[1], args) } });
    return;
  }
  const { serveMcp } = await import("../../lib/mcp/server.ts");
  await serveMcp(this, { allowWrites: flags.allowWrites, org, project });
}
