import { describe, expect, test } from "bun:test";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (
  args: string[],
  env: Record<string, string | undefined> = {},
  token: string | null = USER_TOKEN,
) => runCli(args, { api, token: token ?? undefined, env });

describe("--fields", () => {
  test("list wrappers keep their keys; paths apply to each item, dot paths nest", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "2", "--fields", "shortId,project.slug"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      data: [
        { shortId: "WEB-1", project: { slug: "web" } },
        { shortId: "WEB-2", project: { slug: "web" } },
      ],
      hasMore: true,
      nextCursor: "0:2:0",
      total: 1282,
    });
  });

  test("arrays map element-wise; --fields implies --json", async () => {
    const r = await run(["issue", "view", "acme/WEB-4Y", "--fields", "shortId,tags.key"]);
    expect(JSON.parse(r.stdout)).toEqual({
      shortId: "WEB-4Y",
      tags: [{ key: "environment" }, { key: "level" }, { key: "release" }],
    });
  });

  test("an unknown field is a usage error listing the valid ones (as JSON on stderr)", async () => {
    const r = await run(["org", "list", "--fields", "slug,nope"]);
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({ class: "ValidationError", code: 21 });
    expect(err.message).toStartWith("Unknown field nope. Valid fields: ");
    expect(err.message).toContain("slug");
  });
});

describe("--max-chars and --format md", () => {
  test("JSON is trimmed to the bound and says what was left out", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "50", "--json", "--max-chars", "3000"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().length).toBeLessThanOrEqual(3000);
    const doc = JSON.parse(r.stdout);
    expect(doc.truncated.data).toBe(50 - doc.data.length);
    expect(doc.data[0].shortId).toBe("WEB-1");
  });

  test("issue view as markdown: summary line, exception, tags", async () => {
    const r = await run(["issue", "view", "acme/WEB-4Y", "--format", "md"]);
    expect(r.exitCode).toBe(0);
    const issue = findIssue(api.state, "4158");
    expect(r.stdout).toStartWith(`## WEB-4Y: ${issue?.title}\n`);
    expect(r.stdout).toContain("\n### Exception\n  DatabaseError: ");
    expect(r.stdout).toContain("\n### Tags\n  environment  ");
  });

  test("a list as a compact table; --max-chars drops the last rows and says so", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "40", "--format", "md", "--max-chars", "800"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(801);
    expect(r.stdout).toContain("| id | level | title |");
    expect(r.stdout).toContain("| WEB-1 |");
    expect(r.stdout).toMatch(/_Left out to fit 800 characters: \d+ rows\._\n$/);
  });

  test("an event: in-app frames with context lines are kept, older breadcrumbs go first", async () => {
    const id = eventIdOf(findIssue(api.state, "4158") as NonNullable<ReturnType<typeof findIssue>>, 2);
    const full = await run(["event", "view", `acme/web/${id}`, "--format", "md"]);
    expect(full.stdout).toContain(
      "### In-app frames (most recent call first)\n  at connectDb (app/web/module3.js:42:7)\n    >    42 | return items.map(f);",
    );
    expect(full.stdout).toContain("### Library frames");
    const small = await run(["event", "view", `acme/web/${id}`, "--max-chars", "900"]);
    expect(small.stdout.length).toBeLessThanOrEqual(901);
    expect(small.stdout).toContain("### In-app frames");
    expect(small.stdout).toContain("step 30");
    expect(small.stdout).not.toContain("step 11\n");
    expect(small.stdout).toMatch(/_Left out to fit 900 characters: .*breadcrumbs/);
  });

  test("bad values are validation errors", async () => {
    expect((await run(["org", "list", "--format", "yaml"])).exitCode).toBe(21);
    expect((await run(["org", "list", "--max-chars", "12"])).exitCode).toBe(21);
    expect(api.requests).toEqual([]);
  });
});

describe("errors as data", () => {
  const errorOf = (r: { stderr: string; stdout: string }) => {
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0] as string).error;
  };

  test("each class as one JSON object on stderr, same exit code as text mode", async () => {
    const cases: [string[], Record<string, string | undefined>, string | null, object][] = [
      [["org", "list", "--json"], {}, null, { class: "AuthError", reason: "not_authenticated", code: 10 }],
      [["org", "view", "nope", "--json"], {}, USER_TOKEN, { class: "ResolutionError", code: 23 }],
      [
        ["issue", "list", "acme/web", "-n", "0", "--json"],
        {},
        USER_TOKEN,
        { class: "ValidationError", code: 21 },
      ],
      [["issue", "list", "--json"], {}, USER_TOKEN, { class: "ContextError", code: 22 }],
      [["issue", "list", "--nosuch", "--json"], {}, USER_TOKEN, { class: "UsageError", code: 2 }],
      [["nosuch", "--json"], {}, USER_TOKEN, { class: "UsageError", code: 2 }],
      [["org", "list", "--json"], { TRACKER_URL: "ftp://x" }, USER_TOKEN, { class: "ConfigError", code: 20 }],
      [
        ["org", "list", "--json"],
        { TRACKER_URL: "http://127.0.0.1:1" },
        USER_TOKEN,
        { class: "NetworkError", code: 31 },
      ],
      [
        ["query", "acme/web", "--dataset", "spans", "-F", "bogus()", "--json"],
        {},
        USER_TOKEN,
        {
          class: "ApiError",
          code: 30,
          status: 400,
          detail: "Unknown function bogus",
        },
      ],
    ];
    for (const [args, env, token, want] of cases) {
      const text = await run(
        args.filter((a) => a !== "--json"),
        env,
        token,
      );
      const json = await run(args, env, token);
      expect(json.exitCode).toBe(text.exitCode);
      expect({ args, error: errorOf(json) }).toEqual({ args, error: expect.objectContaining(want) });
    }
  }, 30_000);

  test("TRACKER_OUTPUT=json makes JSON the default; --no-json still gives text", async () => {
    const ok = await run(["org", "list"], { TRACKER_OUTPUT: "json" });
    expect(JSON.parse(ok.stdout).map((o: { slug: string }) => o.slug)).toContain("acme");
    const bad = await run(["org", "view", "nope"], { TRACKER_OUTPUT: "json" });
    expect(errorOf(bad)).toMatchObject({ class: "ResolutionError", code: 23 });
    const text = await run(["org", "view", "nope", "--no-json"], { TRACKER_OUTPUT: "json" });
    expect(text.stderr).toStartWith("Error: Organization 'nope' was not found.");
    const wrong = await run(["org", "list"], { TRACKER_OUTPUT: "yaml" });
    expect(wrong.exitCode).toBe(20);
  });

  test("a token echoed by the server is masked in JSON errors too", async () => {
    api.inject({
      status: 401,
      body: { detail: `Invalid token '${USER_TOKEN}'` },
      times: Number.POSITIVE_INFINITY,
    });
    const r = await run(["org", "list", "--json"]);
    expect(r.stderr).not.toContain(USER_TOKEN);
    expect(errorOf(r).code).toBe(12);
  });
});
