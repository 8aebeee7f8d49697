import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { parseTarget } from "../../../src/lib/resolve/target.ts";
import { parseServiceUrl } from "../../../src/lib/resolve/url.ts";

describe("parseTarget", () => {
  test.each([
    [undefined, { kind: "none" }],
    ["", { kind: "none" }],
    ["   ", { kind: "none" }],
    ["acme/web", { kind: "explicit", org: "acme", project: "web" }],
    ["  acme/web \n", { kind: "explicit", org: "acme", project: "web" }],
    ["acme/web\nsecond line pasted", { kind: "explicit", org: "acme", project: "web" }],
    ["acme/", { kind: "org-all", org: "acme" }],
    ["web", { kind: "project-search", project: "web" }],
    ["Acme/Web", { kind: "explicit", org: "Acme", project: "Web" }],
    ["https://sentry.io/settings/acme/projects/web/", { kind: "explicit", org: "acme", project: "web" }],
    ["https://acme.sentry.io/settings/projects/web/", { kind: "explicit", org: "acme", project: "web" }],
    ["https://acme.sentry.io/projects/web/?project=1", { kind: "explicit", org: "acme", project: "web" }],
    [
      "https://sentry.example.com/organizations/acme/projects/web/",
      { kind: "explicit", org: "acme", project: "web" },
    ],
    ["https://sentry.example.com/organizations/acme/", { kind: "org-all", org: "acme" }],
  ] as const)("%p", (input, want) => {
    expect(parseTarget(input)).toEqual(want as never);
  });

  test.each([
    [
      "/web",
      "Invalid target '/web' (empty organization). Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "acme/web/x",
      "Invalid target 'acme/web/x' (too many slashes). Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "acme//",
      "Invalid target 'acme//' (too many slashes). Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "my project",
      "Invalid target 'my project'. Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "acme/my web",
      "Invalid target 'acme/my web'. Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "https://acme.sentry.io/issues/4001/",
      "Invalid target 'https://acme.sentry.io/issues/4001/' (an issue URL; use `tracker issue view https://acme.sentry.io/issues/4001/`). Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
    [
      "https://example.com/nothing",
      "Invalid target 'https://example.com/nothing' (not a project or organization URL of the service). Use <org>/<project>, <org>/ (issue list only), <project>, or a project URL.",
    ],
  ])("rejects %p with a ValidationError naming the forms", (input, message) => {
    let err: unknown;
    try {
      parseTarget(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(message);
  });
});

describe("parseServiceUrl", () => {
  test.each([
    ["https://acme.sentry.io/issues/4001/", { org: "acme", issue: "4001" }],
    ["https://sentry.example.com/organizations/acme/issues/4001/?project=2", { org: "acme", issue: "4001" }],
    ["https://sentry.io/settings/acme/projects/web/keys/", { org: "acme", project: "web" }],
    ["https://us.sentry.io/issues/1/", { issue: "1" }],
    ["not a url", undefined],
  ] as const)("%p", (input, want) => {
    expect(parseServiceUrl(input)).toEqual(want as never);
  });
});
