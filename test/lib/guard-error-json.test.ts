/**
 * Guard: the JSON form of an error (what `--json` prints and MCP tool results carry) masks a token
 * the server echoed in its detail, as text errors do.
 */
import { expect, test } from "bun:test";
import { errorToJson } from "../../src/lib/error-json.ts";
import { ApiError } from "../../src/lib/errors.ts";

const SECRET = "plain-run-secret-0123456789";

test("an echoed known secret in the detail is masked", () => {
  const err = new ApiError({ status: 400, detail: `invalid token ${SECRET} for this org` });
  const doc = errorToJson(err, err.exitCode, "", [SECRET]);
  expect(doc.error.status).toBe(400);
  expect(doc.error.detail).toBe("invalid token [REDACTED] for this org");
  expect(JSON.stringify(doc)).not.toContain(SECRET);
});

test("a token-shaped value in the detail is masked without being a known secret", () => {
  const token = "sntrys_eyJpYXQiOjE3MDAwMDAwMDB9_abcdefghijklmnopqrstuvwxyz0123456789";
  const err = new ApiError({ status: 400, detail: `bad ${token}` });
  const doc = errorToJson(err, err.exitCode);
  expect(doc.error.detail).toBe("bad [REDACTED]");
});
