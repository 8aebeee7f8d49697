/**
 * Parity runs of the read views: releases, feedback, replays, organizations and projects. Feedback
 * and replays exist in the fake only once seeded: those runs name their `setup`, which the parity
 * test must apply to its server before them (ViewRun has no such field yet; see below).
 */
import { seedFeedback } from "../../fake-api/routes/feedback.ts";
import { seedReplays } from "../../fake-api/routes/replays.ts";
import { FEEDBACK_REPLAY_ID } from "../../fake-api/routes/feedback.ts";
import type { FakeState } from "../../fake-api/types.ts";
import type { ViewRun } from "./types.ts";

/** A run and the fake data it needs (seeding twice only adds rows; replays are replaced). */
type SeededRun = ViewRun & { setup?: (state: FakeState) => void };

const feedback = (state: FakeState) => void seedFeedback(state);
const replays = (state: FakeState) => void seedReplays(state);

export const RUNS: Record<string, SeededRun> = {
  "release list": { args: ["release", "list", "acme/web"] },
  "release view": { args: ["release", "view", "web@1.5.0", "acme"] },
  "release deploys": { args: ["release", "deploys", "web@1.5.0", "acme"] },
  "feedback list": { args: ["feedback", "list", "acme/web", "--status", "all"], setup: feedback },
  // Any issue reads as feedback (its message and page are empty): no seeding needed.
  "feedback view": { args: ["feedback", "view", "acme/WEB-4Y"] },
  "replay list": { args: ["replay", "list", "acme/web"], setup: replays },
  "replay view": { args: ["replay", "view", FEEDBACK_REPLAY_ID, "acme/web"], setup: replays },
  "org list": { args: ["org", "list"] },
  "org view": { args: ["org", "view", "acme"] },
  "project list": { args: ["project", "list", "acme"] },
  "project view": { args: ["project", "view", "acme/web"] },
};
