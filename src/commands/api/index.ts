import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `tracker api`. */
export interface ApiFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly method?: string;
  readonly field?: readonly string[];
  readonly rawField?: readonly string[];
  readonly header?: readonly string[];
  readonly input?: string;
  readonly paginate: boolean;
  readonly include: boolean;
  readonly silent: boolean;
}

/** `tracker api <path>`: an authenticated request to any endpoint. */
export const apiCommand = buildCommand<ApiFlags, [string], TrackerContext>({
  loader: () => import("./api.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      method: {
        kind: "parsed",
        placeholder: "<method>",
        parse: String,
        optional: true,
        brief: "HTTP method (default GET; POST when fields are given)",
      },
      field: {
        kind: "parsed",
        placeholder: "<key=value>",
        parse: String,
        optional: true,
        variadic: true,
        brief: "key=value, typed: numbers, true/false, null, @file",
      },
      rawField: {
        kind: "parsed",
        placeholder: "<key=value>",
        parse: String,
        optional: true,
        variadic: true,
        brief: "key=value as a string",
      },
      header: {
        kind: "parsed",
        placeholder: "<header>",
        parse: String,
        optional: true,
        variadic: true,
        brief: "'Name: value' request header",
      },
      input: {
        kind: "parsed",
        placeholder: "<file>",
        parse: String,
        optional: true,
        brief: "Request body from a file, or - for stdin",
      },
      paginate: {
        kind: "boolean",
        default: false,
        brief: "Follow Link cursors (up to 50 pages); print one JSON array",
      },
      include: { kind: "boolean", default: false, brief: "Print the status line and response headers first" },
      silent: { kind: "boolean", default: false, brief: "Print no response body" },
    },
    aliases: { X: "method", F: "field", f: "rawField", H: "header", i: "include" },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "path",
          brief: "Endpoint path below /api/0/, e.g. organizations/{org}/projects/",
          parse: String,
        },
      ],
    },
  },
  docs: {
    brief: "Make an authenticated API request",
    fullDescription: describe(
      "Sends a request to the service's API with your login and prints the response body as the server sent it. The path is relative to /api/0/ (a leading /api/0/ is accepted); {org} and {project} are filled from the usual target context; organization and project paths go to the organization's region. -F fields are typed (numbers, true/false, null, @file reads a file), -f fields are strings; with fields the method defaults to POST, and with -X GET they become query parameters. Exit 0 for 2xx; otherwise the body is still printed and the exit code is the API error's (30, or 10-12 for authentication).",
      [
        "tracker api organizations/",
        "tracker api 'organizations/{org}/projects/' --paginate",
        "tracker api -X PUT 'organizations/{org}/issues/4001/' -f status=resolved",
        "tracker api 'projects/{org}/{project}/keys/' --include",
      ],
    ),
  },
});
