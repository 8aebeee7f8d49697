/**
 * Parity runs of the read views: releases, feedback, replays, organizations and projects. Feedback
 * and replays exist in the fake only once seeded: those runs seed them in their `setup`.
 */
import { seedFeedback } from "../../fake-api/routes/feedback.ts";
import { seedReplays } from "../../fake-api/routes/replays.ts";
import { FEEDBACK_REPLAY_ID } from "../../fake-api/routes/feedback.ts";
import type { RunSetup, ViewRun } from "./types.ts";

// Seeding twice only adds rows; replays are replaced.
const feedback = ({ state }: RunSetup) => void seedFeedback(state);
const replays = ({ state }: RunSetup) => void seedReplays(state);

export const RUNS: Record<string, ViewRun> = {
  "release list": { args: ["release", "list", "acme/web"] },
  "release view": { args: ["release", "view", "web@1.5.0", "acme"] },
  "release deploys": { args: ["release", "deploys", "web@1.5.0", "acme"] },
  "feedback list": { args: ["feedback", "list", "acme/web", "--status", "all"], setup: feedback },
  // The first seeded feedback: a message over two lines, a name, an email, a page and a replay.
  "feedback view": {
    args: [],
    setup: ({ state }) => ({
      args: ["feedback", "view", `acme/${(seedFeedback(state)[0] as { shortId: string }).shortId}`],
    }),
  },
  "replay list": { args: ["replay", "list", "acme/web"], setup: replays },
  "replay view": { args: ["replay", "view", FEEDBACK_REPLAY_ID, "acme/web"], setup: replays },
  "org list": { args: ["org", "list"] },
  "org view": { args: ["org", "view", "acme"] },
  "project list": { args: ["project", "list", "acme"] },
  "project view": { args: ["project", "view", "acme/web"] },
};
