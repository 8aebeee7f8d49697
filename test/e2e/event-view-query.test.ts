/** `event view --json` filters credentials in the request's `query` sent as [key, value] pairs, as Sentry's API sends it. */
import { expect, test } from "bun:test";
import { findIssue } from "../fake-api/routes/issues.ts";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

test("a request's query pairs lose access_token and other secret-named values; the rest stays", async () => {
  const id = eventIdOf(findIssue(api.state, "4158") as NonNullable<ReturnType<typeof findIssue>>, 2);
  const path = `/api/0/projects/acme/web/events/${id}/`;
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${USER_TOKEN}` } });
  const event = (await res.json()) as { entries: unknown[] };
  event.entries.push({
    type: "request",
    data: {
      url: "https://shop.example/cart",
      method: "GET",
      query: [
        ["access_token", "sntryu_leaked_in_a_url"],
        ["page", "2"],
      ],
    },
  });
  api.reset();
  api.inject({ path, status: 200, body: event });
  const r = await runCli(["event", "view", `acme/web/${id}`, "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).not.toContain("sntryu_leaked_in_a_url");
  const doc = JSON.parse(r.stdout);
  const request = doc.entries.find(
    (e: { type: string; data: { url?: string } }) =>
      e.type === "request" && e.data.url === "https://shop.example/cart",
  );
  expect(request.data.query).toEqual([
    ["access_token", "[Filtered]"],
    ["page", "2"],
  ]);
});
