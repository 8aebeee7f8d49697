/** The sandbox's incident demo (script/sandbox.ts): every command it suggests answers with data. */
import { expect, test } from "bun:test";
import { seedIncidentDemo } from "../fake-api/routes/incidents.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

let demo: ReturnType<typeof seedIncidentDemo> | undefined;
const api = useFakeApi({
  setup: (state) => {
    demo = seedIncidentDemo(state);
  },
});

test("issue view/activity/timeline, feedback and replays of the demo all have something to show", async () => {
  if (!demo) throw new Error("the demo was not seeded");
  const json = async (args: string[]) => {
    const r = await runCli([...args, "--json"], { api, token: USER_TOKEN });
    expect({ args, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ args, exitCode: 0, stderr: "" });
    return JSON.parse(r.stdout);
  };
  const view = await json(["issue", "view", demo.issue]);
  expect([
    view.suspectCommits.length,
    view.firstRelease.deploys.length,
    view.links.length,
    view.notes.length,
  ]).toEqual([2, 2, 1, 1]);
  expect((await json(["issue", "activity", demo.issue])).data.length).toBeGreaterThan(4);
  expect((await json(["issue", "timeline", demo.issue])).data.map((e: { kind: string }) => e.kind)).toContain(
    "deploy",
  );
  expect((await json(["feedback", "list", "acme/web"])).data.length).toBe(2);
  expect((await json(["feedback", "view", demo.feedback])).replayId).toBe(demo.replay);
  expect((await json(["replay", "list", "acme/web"])).data.length).toBe(2);
  expect((await json(["replay", "view", demo.replay, "acme/web"])).breadcrumbs.length).toBe(5);
});
