/** Guard: the saved `-c last` position belongs to one query; another query never continues it. */
import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const issueCalls = () => api.requestsTo("/api/0/organizations/acme/issues/", "GET");
const list = (args: string[], configDir: string) =>
  runCli(["issue", "list", "acme/web", ...args], { api, token: USER_TOKEN, configDir });

test("-q A saves a position; -q B -c last does not use it; -q A -c last does", async () => {
  const configDir = tempDir();
  const a = await list(["-q", "level:error", "-n", "30", "--json"], configDir);
  expect(a.exitCode).toBe(0);
  expect(JSON.parse(a.stdout).nextCursor).toBe("0:30:0");
  api.reset();

  const b = await list(["-q", "level:warning", "-c", "last", "--json"], configDir);
  for (const call of issueCalls()) expect(call.query.get("cursor")).not.toBe("0:30:0");
  expect(b.exitCode).toBe(21);
  expect(b.stderr).toContain("a different sort, query or period starts again at the first page");
  expect(issueCalls()).toEqual([]);

  const again = await list(["-q", "level:error", "-n", "30", "-c", "last", "--json"], configDir);
  expect(again.exitCode).toBe(0);
  expect(issueCalls()[0]?.query.get("cursor")).toBe("0:30:0");
  expect(issueCalls()[0]?.query.get("query")).toContain("level:error");
});
