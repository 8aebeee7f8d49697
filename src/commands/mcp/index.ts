import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { READ_TOOL_NAMES as READ_TOOLS, WRITE_TOOL_NAMES as WRITE_TOOLS } from "../../lib/mcp/tool-names.ts";

/** Flags of `tracker mcp`. */
export interface McpFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly allowWrites: boolean;
  readonly printConfig: boolean;
}

/** `tracker mcp`: the MCP server on stdio. */
export const mcpCommand = buildCommand<McpFlags, [string?], TrackerContext>({
  loader: () => import("./serve.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "target",
          brief: "Default <org>/<project> or <org>/ for the tools",
          parse: String,
          optional: true,
        },
      ],
    },
    flags: {
      ...globalFlags,
      allowWrites: {
        kind: "boolean",
        default: false,
        brief: `Also offer ${WRITE_TOOLS.join(" and ")} (they change issues)`,
      },
      printConfig: {
        kind: "boolean",
        default: false,
        brief: "Print the MCP client configuration for this tracker and exit",
      },
    },
  },
  docs: {
    brief: "Serve tracker's commands to AI agents over MCP (stdio)",
    fullDescription: describe(
      `Runs a Model Context Protocol server on stdin/stdout with the same login, target resolution, caches and JSON shapes as the CLI. Tools: ${READ_TOOLS.join(", ")}; with --allow-writes also ${WRITE_TOOLS.join(" and ")}. Logs go to stderr.`,
      [
        "tracker mcp --print-config",
        "claude mcp add tracker -- tracker mcp",
        "tracker mcp acme/web --allow-writes",
      ],
    ),
  },
});
