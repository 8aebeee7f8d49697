/** Every route module of the fake API. Each module owns its routes and its part of the state. */
import type { Route } from "../types.ts";
import { attributeRoutes } from "./attributes.ts";
import { authRoutes } from "./auth.ts";
import { autofixRoutes } from "./autofix.ts";
import { chunkRoutes } from "./chunks.ts";
import { difRoutes } from "./difs.ts";
import { exploreRoutes } from "./explore.ts";
import { feedbackRoutes } from "./feedback.ts";
import { incidentRoutes } from "./incidents.ts";
import { issueRoutes } from "./issues.ts";
import { logRoutes } from "./logs.ts";
import { monitorRoutes } from "./monitors.ts";
import { oauthRoutes } from "./oauth.ts";
import { orgRoutes } from "./orgs.ts";
import { releaseRoutes } from "./releases.ts";
import { replayRoutes } from "./replays.ts";
import { traceItemRoutes } from "./trace-items.ts";
import { traceRoutes } from "./traces.ts";
import { triageRoutes } from "./triage.ts";

/** All built-in routes, in match order. */
export const allRoutes: Route[] = [
  ...authRoutes,
  ...oauthRoutes,
  ...orgRoutes,
  ...incidentRoutes,
  ...feedbackRoutes,
  ...issueRoutes,
  ...chunkRoutes,
  ...difRoutes,
  ...triageRoutes,
  ...autofixRoutes,
  ...exploreRoutes,
  ...logRoutes,
  ...traceRoutes,
  ...monitorRoutes,
  ...releaseRoutes,
  ...replayRoutes,
  ...traceItemRoutes,
  ...attributeRoutes,
];
