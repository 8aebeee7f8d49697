/**
 * MCP read tools for incidents (API.md §22): an issue's activity and timeline, user feedback and
 * session replays. Each runs its CLI command in-process; bounded by the same limits as the CLI.
 */
import { int, LIST_FLAGS, one, opt, pos, schema, str, type ToolSpec } from "./tool-kit.ts";

/** The incident tools (all read-only). */
export const INCIDENT_TOOLS: readonly ToolSpec[] = [
  {
    name: "issue_activity",
    title: "Issue activity",
    description: "Notes, status changes, assignments.",
    inputSchema: schema({ issue: str() }, ["issue"]),
    run: (a) => one(["issue", "activity"], [String(a.issue)]),
  },
  {
    name: "issue_timeline",
    title: "Issue timeline",
    description: "Releases, deploys, activity in time order.",
    inputSchema: schema({ issue: str() }, ["issue"]),
    run: (a) => one(["issue", "timeline"], [String(a.issue)]),
  },
  {
    name: "feedback_list",
    title: "List user feedback",
    description: "User feedback.",
    inputSchema: schema({
      target: str(),
      status: { enum: ["unresolved", "resolved", "spam", "all"] },
      limit: int(1, 1000),
      period: str(),
      cursor: str(),
    }),
    run: (a) =>
      one(
        [
          "feedback",
          "list",
          ...opt(a, { status: "--status", limit: "--limit", period: "--period", cursor: "--cursor" }),
        ],
        pos(a.target),
      ),
  },
  {
    name: "feedback_view",
    title: "View feedback",
    description: "One feedback, its replay and event.",
    inputSchema: schema({ feedback: str() }, ["feedback"]),
    run: (a) => one(["feedback", "view"], [String(a.feedback)]),
  },
  {
    name: "replay_list",
    title: "List replays",
    description: "Session replays.",
    inputSchema: schema({
      target: str(),
      query: str(),
      limit: int(1, 1000),
      period: str(),
      cursor: str(),
    }),
    run: (a) => one(["replay", "list", ...opt(a, { ...LIST_FLAGS, period: "--period" })], pos(a.target)),
  },
  {
    name: "replay_view",
    title: "View a replay",
    description: "One replay with breadcrumbs.",
    inputSchema: schema({ replay: str(), target: str() }, ["replay"]),
    run: (a) => one(["replay", "view"], [String(a.replay), ...pos(a.target)]),
  },
];
