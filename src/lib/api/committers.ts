/**
 * Suspect commits of an event (API.md §22.7): the committers whose commits touched the frames of
 * the event, each commit with its message, repository and pull request.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

const Author = v.looseObject({
  name: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
  username: v.optional(v.nullable(v.string())),
});

const SuspectCommit = v.looseObject({
  id: v.string(),
  message: v.optional(v.nullable(v.string())),
  dateCreated: v.optional(v.nullable(v.string())),
  repository: v.optional(v.nullable(v.looseObject({ name: v.optional(v.nullable(v.string())) }))),
  pullRequest: v.optional(
    v.nullable(
      v.looseObject({
        id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
        title: v.optional(v.nullable(v.string())),
        externalUrl: v.optional(v.nullable(v.string())),
      }),
    ),
  ),
  suspectCommitType: v.optional(v.nullable(v.string())),
  score: v.optional(v.nullable(v.number())),
});

const Committer = v.looseObject({
  author: v.optional(v.nullable(Author)),
  commits: v.array(SuspectCommit),
});
/** A validated committer with their suspect commits. */
export type Committer = v.InferOutput<typeof Committer>;

/**
 * `GET projects/{org}/{project}/events/{event_id}/committers/`. The endpoint answers 404 when there
 * is nothing to suspect (no release, no commits): that is an empty list here, not an error.
 */
export async function listCommitters(
  ctx: TrackerContext,
  org: string,
  project: string,
  eventId: string,
): Promise<Committer[]> {
  const res = await apiRequest(ctx, {
    path: `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/events/${encodeURIComponent(eventId)}/committers/`,
    host: { org },
    // A 404 is the usual answer (no release, no commits): data, not a stale region to look up again.
    acceptStatuses: [404],
    schema: v.union([
      v.looseObject({ committers: v.array(Committer) }),
      v.looseObject({ detail: v.unknown() }),
    ]),
  });
  const data = res.data as { committers?: Committer[] };
  return res.status === 404 ? [] : (data.committers ?? []);
}
