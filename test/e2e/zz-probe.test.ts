import { test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runOnTerminal } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
const api = useFakeApi();
for (const args of [
  ["release", "view", "web@1.5.0", "acme"],
  ["trace", "view", "aaaa1111aaaa1111aaaa1111aaaa1111", "acme", "--logs"],
]) {
  test(args.join(" "), async () => {
    const r = await runOnTerminal(args, { api, token: USER_TOKEN });
    console.log(
      args.join(" "),
      r.exitCode,
      "\n" + r.stdout,
      r.stderr.slice(0, 300),
      api.requests.map((q) => q.method + " " + q.path + (q.query ?? "")),
    );
  });
}
