/** An organization the service does not know is exit 23 with near matches, in every command that takes one. */
import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

test.each([
  [["monitor", "list", "acmee"]],
  [["log", "list", "acmee/"]],
  [["query", "acmee/", "--dataset", "spans", "-F", "count()"]],
  [["query", "acmee/", "--dataset", "spans", "-F", "count()", "--interval", "1h"]],
  [["status", "acmee"]],
])("%p: exit 23, 'Organization … was not found' and the near match", async (args) => {
  const r = await runCli(args, { api, token: USER_TOKEN, configDir: tempDir() });
  expect(r.exitCode).toBe(23);
  expect(r.stderr).toContain("Organization 'acmee' was not found.");
  expect(r.stderr).toContain("Did you mean acme");
  expect(r.stdout).toBe("");
});
