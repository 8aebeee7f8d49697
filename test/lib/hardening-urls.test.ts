/** Pasted URLs with malformed percent-escapes: a validation error (exit 21), never a crash. */
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../src/lib/errors.ts";
import { parseIssueRef } from "../../src/lib/issue/reference.ts";
import { callTool } from "../../src/lib/mcp/server.ts";
import { malformedEscape, parseServiceUrl } from "../../src/lib/resolve/url.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const BAD_URL = "https://acme.sentry.io/issues/%E0%A4%A/";

describe("malformed percent-escapes in pasted URLs", () => {
  test("the library: malformedEscape names the segment, parseServiceUrl gives up, parseIssueRef is a ValidationError", () => {
    expect(malformedEscape(BAD_URL)).toBe("%E0%A4%A");
    expect(malformedEscape("https://acme.sentry.io/organizations/%/issues/1/")).toBe("%");
    expect(malformedEscape("https://acme.sentry.io/issues/WEB-%34Y/")).toBeUndefined();
    expect(malformedEscape("not a url %")).toBeUndefined();
    expect(parseServiceUrl(BAD_URL)).toBeUndefined();
    expect(parseServiceUrl("https://acme.sentry.io/issues/WEB-%34Y/")).toEqual({
      org: "acme",
      issue: "WEB-4Y",
    });
    let err: unknown;
    try {
      parseIssueRef(BAD_URL);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toBe(
      `Invalid issue URL '${BAD_URL}': '%E0%A4%A' is not a valid percent-escape sequence. Copy the URL again from the browser's address bar.`,
    );
  });

  test("issue view <bad URL>: exit 21 with the reason, no request", async () => {
    const r = await runCli(["issue", "view", BAD_URL], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("'%E0%A4%A' is not a valid percent-escape sequence");
    expect(r.stderr).not.toContain("URI");
    expect(api.requests).toEqual([]);
  });

  test("project view and event view with a bad URL: exit 21", async () => {
    for (const args of [
      ["project", "view", "https://acme.sentry.io/projects/%E0%A4%A/"],
      ["event", "view", "https://acme.sentry.io/issues/1/events/%E0%A4%A/"],
    ]) {
      const r = await runCli(args, { api, token: USER_TOKEN });
      expect({ args, code: r.exitCode }).toEqual({ args, code: 21 });
      expect(r.stderr).not.toContain("URI");
    }
    expect(api.requests).toEqual([]);
  });

  test("MCP resolve_url: an invalid-argument result (ValidationError), not an internal error", async () => {
    const { ctx } = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const r = await callTool(ctx, { allowWrites: false }, "resolve_url", { url: BAD_URL });
    expect(r.isError).toBe(true);
    const text = (r.content as { type: string; text: string }[])[0]?.text ?? "";
    const doc = JSON.parse(text) as { error: { class: string; code: number; message: string } };
    expect(doc.error.class).toBe("ValidationError");
    expect(doc.error.code).toBe(21);
    expect(api.requests).toEqual([]);
  });
});
