/**
 * Guard: the text form of an error masks the run's secrets and token-shaped values itself, so an
 * error rendered outside the masking sinks (a crash before the context exists) never prints one.
 */
import { expect, test } from "bun:test";
import { renderError } from "../../src/lib/error-render.ts";
import { ApiError, CliError } from "../../src/lib/errors.ts";

const SECRET = "plain-run-secret-0123456789";

test("a known secret and a prefixed token in message and detail are masked", () => {
  const token = "sntryu_abcdefghijklmnopqrstuvwxyz0123456789abcd";
  const api = new ApiError({ status: 400, detail: `bad ${token} and ${SECRET}` });
  const text = renderError(api, false, [SECRET]);
  expect(text).not.toContain(token);
  expect(text).not.toContain(SECRET);
  expect(text).toContain("[REDACTED]");
  const plain = renderError(new CliError(`failed with ${SECRET}`, 1), false, [SECRET]);
  expect(plain).toBe("Error: failed with [REDACTED]");
});
