import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags, webFlag } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { eventSendEnvelopeCommand } from "./send-envelope-spec.ts";
import { eventSendCommand } from "./send-spec.ts";

/** Flags of `event view`. */
export interface EventViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly web: boolean;
}

/** Routes of `tracker event`. */
export const eventRoutes = buildRouteMap({
  routes: {
    view: buildCommand<EventViewFlags, [string, string?], TrackerContext>({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, web: webFlag },
        aliases: { w: "web" },
        positional: {
          kind: "tuple",
          parameters: [
            {
              placeholder: "event",
              brief: "Event ID (32 hex), <org>/<project>/<event-id>, or an event URL",
              parse: String,
            },
            {
              placeholder: "org/project",
              brief: "Where the event is (else from the context)",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Show one event",
        fullDescription: describe(
          "Shows an event: the exception, in-app frames with context lines, tags, the last 20 breadcrumbs and contexts. Without a project, the event ID is looked up in the organization. Cookies and Authorization headers of the event's request are never shown. --json prints the event.",
          [
            "tracker event view acme/web/d051c78d45db7e9bd051c78d45db7e9b",
            "tracker event view d051c78d45db7e9bd051c78d45db7e9b acme/web --json",
            "tracker event view https://acme.sentry.io/issues/4001/events/d051c78d45db7e9bd051c78d45db7e9b/",
          ],
        ),
      },
    }),
    send: eventSendCommand,
    "send-envelope": eventSendEnvelopeCommand,
  },
  docs: {
    brief: "Inspect events",
    fullDescription: describe("Work with single events.", ["tracker event view acme/web/<event-id>"]),
  },
});
