/** `query --help` examples run as written in bash, and `-s '-count()'` sorts descending. */
import { expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

/** The examples of a help text: `  tracker …` lines with their wrapped continuations joined. */
function examples(help: string): string[] {
  const lines = help.slice(help.indexOf("Examples:")).split("\n").slice(1);
  const out: string[] = [];
  for (const l of lines) {
    if (l.startsWith("  tracker ")) out.push(l.trim());
    else if (l.startsWith("      ") && out.length > 0) out[out.length - 1] += ` ${l.trim()}`;
    else break;
  }
  return out;
}

test("each example of query --help is valid bash and keeps its parentheses in one word", async () => {
  const help = (await runCli(["query", "--help"])).stdout;
  const cmds = examples(help);
  expect(cmds.length).toBeGreaterThanOrEqual(3);
  for (const cmd of cmds) {
    // The words bash would pass: one per line.
    const proc = Bun.spawnSync(["bash", "-c", cmd.replace(/^tracker /, "printf '%s\\n' ")]);
    expect({ cmd, exit: proc.exitCode }).toEqual({ cmd, exit: 0 });
    const words = proc.stdout.toString().trimEnd().split("\n");
    for (const w of words.filter((x) => x.includes("("))) expect(w).toMatch(/^-?[a-z_0-9]+\([a-z_.]*\)$/);
  }
});

test("-s '-count()' is a descending sort, not a flag", async () => {
  const r = await runCli(
    ["query", "acme/web", "--dataset", "spans", "-F", "span.op", "-F", "count()", "-s", "-count()", "--json"],
    { api, token: USER_TOKEN, configDir: tempDir() },
  );
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  expect(api.requestsTo("/api/0/organizations/acme/events/")[0]?.query.get("sort")).toBe("-count()");
});
