import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { ENVELOPE_FILE_MAX_BYTES } from "../../lib/envelope/file.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `event send-envelope`. */
export interface EventSendEnvelopeFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly raw: boolean;
}

/** `event send-envelope <path>`: a stored envelope by DSN (sentry-cli's send-envelope). */
export const eventSendEnvelopeCommand = buildCommand<EventSendEnvelopeFlags, [string], TrackerContext>({
  loader: () => import("./send-envelope.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      raw: {
        kind: "boolean",
        default: false,
        brief: "Accepted for sentry-cli scripts: the file is always sent as it is",
      },
    },
    positional: {
      kind: "tuple",
      parameters: [{ placeholder: "path", brief: "An envelope file", parse: String }],
    },
  },
  docs: {
    brief: "Send an envelope file by DSN",
    fullDescription: describe(
      `Sends a file in Sentry's envelope format (a JSON header line, then items) to the project of the DSN (TRACKER_DSN, else the DSN detected in .env files or source code), byte for byte, and prints the event ID the service acknowledged (else the header's event_id). Only a regular file of at most ${ENVELOPE_FILE_MAX_BYTES / 1024 / 1024} MiB whose first line is a JSON object is sent. --json prints {"eventId", "bytes"}.`,
      ["tracker event send-envelope ./crash.envelope", "tracker event send-envelope ./crash.envelope --json"],
    ),
  },
});
