import { expect, test } from "bun:test";
import { TRACE_NESTED } from "../../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { runCli, tempDir } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

// Most e2e tests run the app in-process; these run one command of each family as a real child
// process (the compiled binary in CI's smoke step), so real stdio, exit and env handling stay covered.
const api = useFakeApi();
const run = (args: string[], configDir = tempDir("tracker-cfg-")) =>
  runCli(args, { api, token: USER_TOKEN, configDir, subprocess: true });

test("issue list and view", async () => {
  const list = await run(["issue", "list", "acme/web", "-n", "2", "--json"]);
  expect(list.exitCode).toBe(0);
  expect(JSON.parse(list.stdout).data).toHaveLength(2);
  const view = await run(["issue", "view", "acme/WEB-4Y", "--json"]);
  expect(view.exitCode).toBe(0);
  expect(JSON.parse(view.stdout).shortId).toBe("WEB-4Y");
});

test("trace list and view", async () => {
  const list = await run(["trace", "list", "acme/web", "-n", "2"]);
  expect(list.exitCode).toBe(0);
  // Piped from the binary: tab-separated rows, no header.
  expect(list.stdout.split("\n")[0]).toStartWith("aaaa1111bbbb2222cccc3333dddd4444\tGET /api/users\t245\t");
  const view = await run(["trace", "view", TRACE_NESTED, "acme", "--json"]);
  expect(view.exitCode).toBe(0);
  expect(JSON.parse(view.stdout).traceId).toBe(TRACE_NESTED);
});

test("org, project, defaults, auth and cli", async () => {
  const configDir = tempDir("tracker-cfg-");
  const orgs = await run(["org", "list", "--json"], configDir);
  expect(orgs.exitCode).toBe(0);
  const projects = await run(["project", "list", "acme", "--json"], configDir);
  expect(projects.exitCode).toBe(0);
  const set = await run(["defaults", "set", "acme/web"], configDir);
  expect(set.exitCode).toBe(0);
  const show = await run(["defaults", "--json"], configDir);
  expect(JSON.parse(show.stdout)).toMatchObject({ org: "acme", project: "web" });
  const status = await run(["auth", "status", "--json"], configDir);
  expect(status.exitCode).toBe(0);
  const fix = await run(["cli", "fix"], configDir);
  expect(fix.exitCode).toBe(0);
});

test("failures keep stdout empty and exit with the documented code", async () => {
  const r = await runCli(["issue", "view", "acme/NOPE-1"], { api, subprocess: true });
  expect(r.exitCode).toBe(10);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith("Error: Not authenticated");
});
