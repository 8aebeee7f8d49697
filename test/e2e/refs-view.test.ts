/** `issue view` says who an issue is assigned to, what resolved it and what its archive waits for. */
import { expect, test } from "bun:test";
import { statusDetailText } from "../../src/lib/format/issue-status.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

test("resolved in a release and assigned: the human view and --json say so", async () => {
  expect((await run(["issue", "resolve", "acme/WEB-4Y", "--in", "web@1.5.0"])).exitCode).toBe(0);
  expect((await run(["issue", "assign", "acme/WEB-4Y", "me"])).exitCode).toBe(0);
  const human = await run(["issue", "view", "acme/WEB-4Y"]);
  expect(human.exitCode).toBe(0);
  expect(human.stdout).toContain("  Status:      resolved in web@1.5.0");
  expect(human.stdout).toContain("  Assignee:    Jane Doe (jane@example.com)");
  const json = JSON.parse((await run(["issue", "view", "acme/WEB-4Y", "--json"])).stdout);
  expect(json.assignedTo).toMatchObject({ type: "user", id: "12345", name: "Jane Doe" });
  expect(json.statusDetails).toEqual({ inRelease: "web@1.5.0" });
});

test("archived until a count within a window, assigned to a team", async () => {
  expect((await run(["issue", "archive", "acme/WEB-1", "--count", "100/1h"])).exitCode).toBe(0);
  expect((await run(["issue", "assign", "acme/WEB-1", "#backend"])).exitCode).toBe(0);
  const human = await run(["issue", "view", "acme/WEB-1"]);
  expect(human.stdout).toContain("  Status:      ignored: archived until 100 more events within 1 hour");
  expect(human.stdout).toContain("  Assignee:    #backend");
  const json = JSON.parse((await run(["issue", "view", "acme/WEB-1", "--json"])).stdout);
  expect(json.statusDetails).toEqual({ ignoreCount: 100, ignoreWindow: 60 });
  expect(json.assignedTo).toMatchObject({ type: "team", name: "backend" });
});

test("an unassigned, unresolved issue: Assignee -, assignedTo null, statusDetails {}", async () => {
  const human = await run(["issue", "view", "acme/WEB-2"]);
  expect(human.stdout).toMatch(/\n {2}Status: {6}unresolved( \(unhandled\))?\n {2}Assignee: {4}-\n/);
  const json = JSON.parse((await run(["issue", "view", "acme/WEB-2", "--json"])).stdout);
  expect(json.assignedTo).toBeNull();
  expect(json.statusDetails).toEqual({});
});

test("next release, escalation, forever and the other statusDetails Sentry sends", () => {
  expect(statusDetailText("resolved", { inNextRelease: true })).toBe("resolved in the next release");
  expect(
    statusDetailText("resolved", { inCommit: { id: "123def456abc7890", repository: { name: "acme/web" } } }),
  ).toBe("resolved in commit 123def456abc (acme/web)");
  expect(statusDetailText("resolved", {})).toBeUndefined();
  expect(statusDetailText("ignored", { ignoreUntilEscalating: true })).toBe("archived until it escalates");
  expect(statusDetailText("ignored", {})).toBe("archived forever");
  expect(statusDetailText("ignored", { ignoreUntil: "2026-02-01T00:00:00Z" })).toBe(
    "archived until 2026-02-01T00:00:00Z",
  );
  expect(statusDetailText("ignored", { ignoreUserCount: 10, ignoreUserWindow: 1440 })).toBe(
    "archived until 10 more users within 1 day",
  );
  expect(statusDetailText("unresolved", { inRelease: "x" })).toBeUndefined();
});
