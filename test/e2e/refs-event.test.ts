/** `event view <event-id> <org>`: the event ID is looked up in that organization. */
import { expect, test } from "bun:test";
import { findIssue } from "../fake-api/routes/issues.ts";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const eventId = () => eventIdOf(findIssue(api.state, "4158") as NonNullable<ReturnType<typeof findIssue>>, 2);

test("event view <event-id> <org> looks the ID up in that organization (eventids)", async () => {
  const r = await runCli(["event", "view", eventId(), "acme", "--json"], { api, token: USER_TOKEN });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout).eventID).toBe(eventId());
  expect(api.requests.map((q) => q.path).filter((p) => p.includes("event"))).toEqual([
    `/api/0/organizations/acme/eventids/${eventId()}/`,
  ]);
});

test("event view <event-id> <org>: human output names the project the lookup found", async () => {
  const r = await runCli(["event", "view", eventId(), "acme"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toStartWith(`Event ${eventId()} (acme/web)\n`);
});

test("event view <event-id> <project> still searches a project slug across organizations", async () => {
  const r = await runCli(["event", "view", eventId(), "mobile-app", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(23);
  expect(api.requests.map((q) => q.path)).toContain(`/api/0/projects/acme/mobile-app/events/${eventId()}/`);
});

test("event view <event-id> <org> for an event the organization does not have: not found in the org", async () => {
  const r = await runCli(["event", "view", eventId(), "globex"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(23);
  expect(r.stderr).toStartWith(`Error: Event ${eventId()} was not found in globex.`);
});
