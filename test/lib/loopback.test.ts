import { expect, test } from "bun:test";
import { isLoopbackHost, isLoopbackUrl } from "../../src/lib/loopback.ts";

test.each([
  ["localhost", true],
  ["LOCALHOST", true],
  ["app.localhost", false],
  ["127.0.0.1", true],
  ["127.1.2.3", false],
  ["127.0.0.2", false],
  ["[::1]", true],
  ["::1", true],
  ["128.0.0.1", false],
  ["127.0.0.1.evil.example", false],
  ["localhost.evil.example", false],
  ["[::2]", false],
  ["10.0.0.1", false],
  ["", false],
])("isLoopbackHost(%p) is %p", (host, expected) => {
  expect(isLoopbackHost(host)).toBe(expected);
});

test.each([
  ["http://127.0.0.1:8000/x", true],
  ["http://[::1]:9000/", true],
  ["http://127.0.0.1:x@other.example/", false],
  ["http://user@127.0.0.1/", true],
  ["https://sentry.io/", false],
  ["not a url", false],
])("isLoopbackUrl(%p) is %p", (url, expected) => {
  expect(isLoopbackUrl(url)).toBe(expected);
});
