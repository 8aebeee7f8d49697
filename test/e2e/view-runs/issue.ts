/** Parity runs of the issue family: `issue list|events|tags|activity|timeline|view|explain|plan` and `event view`. */
import { seedIncident } from "../../fake-api/routes/incidents.ts";
import type { FakeIssue } from "../../fake-api/routes/issues.ts";
import { eventIdOf } from "../../fake-api/routes/triage.ts";
import type { ViewRun } from "./types.ts";

/** An older event of WEB-4Y: one with in-app and library frames, context lines and breadcrumbs. */
const EVENT = eventIdOf({ id: "4158" } as FakeIssue, 2);

export const RUNS: Record<string, ViewRun> = {
  // Org-wide and by first seen: the alias and FIRST SEEN columns too.
  "issue list": { args: ["issue", "list", "acme/", "-n", "8", "--sort", "new"] },
  "issue events": { args: ["issue", "events", "acme/WEB-4Y", "-n", "5"] },
  "issue tags": { args: ["issue", "tags", "acme/WEB-4Y"] },
  "issue tags <key>": { args: ["issue", "tags", "acme/WEB-4Y", "environment"] },
  "issue activity": {
    args: ["issue", "activity", "acme/WEB-4Y"],
    // An issue's activity is empty until an incident is seeded.
    setup: ({ state }) => void seedIncident(state, "acme", "WEB-4Y"),
  },
  "issue timeline": { args: ["issue", "timeline", "acme/WEB-4Y"] },
  "issue view": { args: ["issue", "view", "acme/WEB-4Y", "acme/WEB-3"] },
  "issue explain": { args: ["issue", "explain", "acme/WEB-4Y"] },
  "issue plan": { args: ["issue", "plan", "acme/WEB-4Y"] },
  "event view": { args: ["event", "view", `acme/web/${EVENT}`] },
};
