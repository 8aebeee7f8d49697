/** Guard: the browser opener accepts the service's host or a subdomain of it, never a look-alike suffix. */
import { expect, test } from "bun:test";
import { browserSafeUrl } from "../../src/lib/browser.ts";

test("hosted: a host that merely ends in sentry.io is not the service", () => {
  expect(browserSafeUrl("https://evilsentry.io/oauth/device/", "https://sentry.io")).toBeUndefined();
  expect(browserSafeUrl("https://acme.evilsentry.io/", "https://sentry.io")).toBeUndefined();
  expect(browserSafeUrl("https://sentry.io/oauth/device/", "https://sentry.io")).toBeDefined();
  expect(browserSafeUrl("https://acme.sentry.io/issues/1/", "https://sentry.io")).toBeDefined();
});

test("self-hosted: its own host or a subdomain, not a host ending in its name", () => {
  const service = "https://sentry.example.com";
  expect(browserSafeUrl("https://evilsentry.example.com/x", service)).toBeUndefined();
  expect(browserSafeUrl("https://notsentry.example.com/x", service)).toBeUndefined();
  expect(browserSafeUrl("https://sentry.example.com/x", service)).toBeDefined();
  expect(browserSafeUrl("https://eu.sentry.example.com/x", service)).toBeDefined();
});
