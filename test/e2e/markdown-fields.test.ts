/** `--format md --fields`: a listing's markdown table is the chosen fields, in the order given. */
import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

test("nested paths are columns of their own, and each row carries the JSON's values", async () => {
  const args = ["issue", "list", "acme/web", "-n", "3"];
  const json = JSON.parse((await runCli([...args, "--json"], { api, token: USER_TOKEN })).stdout) as {
    data: { shortId: string; count: number | string; project: { slug: string } }[];
  };
  const md = await runCli([...args, "--format", "md", "--fields", "count,project.slug,shortId"], {
    api,
    token: USER_TOKEN,
  });
  expect(md.exitCode).toBe(0);
  const lines = md.stdout.split("\n");
  expect(lines).toContain("| count | project.slug | shortId |");
  for (const i of json.data) expect(lines).toContain(`| ${i.count} | ${i.project.slug} | ${i.shortId} |`);
});
