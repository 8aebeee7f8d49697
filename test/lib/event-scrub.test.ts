import { expect, test } from "bun:test";
import type { ApiEvent } from "../../src/lib/api/events.ts";
import { scrubEvent } from "../../src/lib/format/event-view.ts";

const event = (data: Record<string, unknown>) =>
  ({ eventID: "e".repeat(32), entries: [{ type: "request", data }] }) as unknown as ApiEvent;
const requestOf = (e: ApiEvent) => ((e.entries ?? [])[0] as { data: Record<string, unknown> }).data;

test("query strings, URLs and bodies lose secret-named values; other values stay", () => {
  const scrubbed = requestOf(
    scrubEvent(
      event({
        url: "https://app.example/login?next=/home&access_token=abc123",
        query_string: "page=2&api_key=k-123&Password=hunter2",
        data: { user: "jane", password: "hunter2", nested: { client_secret: "s", keep: 1 } },
        headers: [
          ["Authorization", "Bearer x"],
          ["Accept", "text/html"],
        ],
        cookies: "session=1",
      }),
    ),
  );
  expect(scrubbed.url).toBe("https://app.example/login?next=/home&access_token=[Filtered]");
  expect(scrubbed.query_string).toBe("page=2&api_key=[Filtered]&Password=[Filtered]");
  expect(scrubbed.data).toEqual({
    user: "jane",
    password: "[Filtered]",
    nested: { client_secret: "[Filtered]", keep: 1 },
  });
  expect(scrubbed.headers).toEqual([
    ["Authorization", "[Filtered]"],
    ["Accept", "text/html"],
  ]);
  expect(scrubbed.cookies).toBe("[Filtered]");
});

test("pairs, form bodies and very deep bodies", () => {
  const pairs = requestOf(
    scrubEvent(
      event({
        query_string: [
          ["token", "t"],
          ["q", "x"],
        ],
        data: "a=1&secret=2",
      }),
    ),
  );
  expect(pairs.query_string).toEqual([
    ["token", "[Filtered]"],
    ["q", "x"],
  ]);
  expect(pairs.data).toBe("a=1&secret=[Filtered]");
  let deep: Record<string, unknown> = { password: "p" };
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  const out = requestOf(scrubEvent(event({ data: deep })));
  expect(JSON.stringify(out).length).toBeLessThan(1000);
});

test("the API's `query` as [key, value] pairs (Sentry's shape), as an object, and the fragment", () => {
  const pairs = requestOf(
    scrubEvent(
      event({
        query: [
          ["access_token", "sntryu_live"],
          ["page", "2"],
          ["Api-Key", "k"],
        ],
        fragment: "access_token=implicit&state=ok",
      }),
    ),
  );
  expect(pairs.query).toEqual([
    ["access_token", "[Filtered]"],
    ["page", "2"],
    ["Api-Key", "[Filtered]"],
  ]);
  expect(pairs.fragment).toBe("access_token=[Filtered]&state=ok");
  const text = requestOf(scrubEvent(event({ query: "access_token=x&q=1" })));
  expect(text.query).toBe("access_token=[Filtered]&q=1");
  const map = requestOf(scrubEvent(event({ query: { token: "t", q: "1" } })));
  expect(map.query).toEqual({ token: "[Filtered]", q: "1" });
});
