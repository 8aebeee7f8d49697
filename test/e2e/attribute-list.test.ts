/** `tracker attribute list` (API.md §22.3) and the completion of `query -F` / `--fields` it feeds. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { TRACE_ITEM_ATTRIBUTES } from "../fake-api/routes/attributes.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type RunOptions, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: Omit<RunOptions, "api" | "token"> = {}) =>
  runCli(["attribute", "list", ...args], { api, token: USER_TOKEN, ...opts });
const ATTRS = "/api/0/organizations/acme/trace-items/attributes/";
const TAGS = "/api/0/organizations/acme/tags/";
const sent = (path: string) =>
  api
    .requestsTo(path)
    .map((r) => Object.fromEntries([...new Set(r.query.keys())].map((k) => [k, r.query.getAll(k)])));

describe("attribute list", () => {
  test("spans: one request for every type (no attributeType), keys with their types, piped as TSV", async () => {
    const r = await run(["acme/web", "--dataset", "spans", "-n", "8"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "span.op\tstring\tsentry",
        "span.description\tstring\tsentry",
        "span.duration\tnumber\tsentry",
        "transaction\tstring\tsentry",
        "is_transaction\tboolean\tsentry",
        "payment.provider\tstring\tuser",
        "tags[amount,number]\tnumber\tuser",
        "tags[retried,boolean]\tboolean\tuser",
        "",
      ].join("\n"),
    );
    const calls = sent(ATTRS);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({
      dataset: ["spans"],
      project: [expect.stringMatching(/^\d+$/)],
      statsPeriod: ["7d"],
      per_page: ["8"],
    });
  });

  test("--json: the list document; pages at 100 up to -n with the offset cursor; -c last continues", async () => {
    const configDir = tempDir("tracker-cfg-");
    const r = await run(["acme/", "--dataset", "spans", "-n", "110", "--json"], { configDir });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data).toHaveLength(110);
    expect(doc.data[6]).toEqual({
      key: "tags[amount,number]",
      name: "amount",
      type: "number",
      source: "user",
    });
    expect(doc).toMatchObject({ hasMore: true, nextCursor: "0:110:0" });
    const next = await run(["acme/", "--dataset", "spans", "-n", "110", "-c", "last", "--json"], {
      configDir,
    });
    expect(JSON.parse(next.stdout).data).toHaveLength(TRACE_ITEM_ATTRIBUTES.spans!.length - 110);
    expect(sent(ATTRS).map((q) => [q.project, q.per_page, q.cursor])).toEqual([
      [["-1"], ["100"], undefined],
      [["-1"], ["10"], ["0:100:0"]],
      [["-1"], ["100"], ["0:110:0"]],
    ]);
  });

  test("logs with -q, a window and environments: substringMatch, start/end, repeated environment", async () => {
    const r = await run([
      "acme/web",
      "--dataset",
      "logs",
      "-q",
      "payment",
      "--start",
      "2026-01-15T09:00",
      "--end",
      "2026-01-15T10:00",
      "-e",
      "production",
      "-e",
      "staging",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([
      { key: "payment.provider", name: "payment.provider", type: "string", source: "user" },
    ]);
    expect(sent(ATTRS)[0]).toMatchObject({
      dataset: ["logs"],
      substringMatch: ["payment"],
      start: ["2026-01-15T09:00:00.000Z"],
      end: ["2026-01-15T10:00:00.000Z"],
      environment: ["production", "staging"],
    });
    expect(sent(ATTRS)[0]?.statsPeriod).toBeUndefined();
  });

  test("errors: the organization's tag keys as strings, -q filters them", async () => {
    const r = await run(["acme/web", "--dataset", "errors", "-q", "se", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([
      { key: "release", name: "Release", type: "string", source: "tag", totalValues: 12 },
      { key: "browser", name: "Browser", type: "string", source: "tag", totalValues: 5 },
    ]);
    expect(sent(TAGS)).toEqual([
      { dataset: ["events"], project: [expect.stringMatching(/^\d+$/)], statsPeriod: ["7d"] },
    ]);
    expect(sent(ATTRS)).toEqual([]);
  });

  test("--format md is a table for a language model", async () => {
    const r = await run(["acme/web", "--dataset", "logs", "--format", "md"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("tags[retry_count,number]");
    expect(r.stdout).toContain("| ");
  });

  test("a terminal gets a table with headers and a footer", async () => {
    const r = await run(["acme/web", "--dataset", "logs"], { terminal: { stdout: true, stderr: true } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^KEY +TYPE +SOURCE$/);
    expect(r.stderr).toContain(
      "5 logs attributes of acme/web (last 7d). Use a key with: tracker query -F <key>",
    );
  });

  test.each([
    [["acme/web"], "--dataset"],
    [["acme/web", "--dataset", "metrics"], "metrics"],
    [["acme/web", "--dataset", "spans", "-t", "soon"], "--period must be"],
  ])("%j is a usage error before any request", async (args, message) => {
    const r = await run(args);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain(message);
    expect(api.requests).toEqual([]);
  });
});

describe("completion of query fields", () => {
  const complete = (words: string[], configDir: string) =>
    runCli(["__complete", "--", ...words], { api, token: USER_TOKEN, configDir });
  const lines = (s: string) => s.split("\n").filter(Boolean);

  test("query -F and --fields offer the keys the last attribute list saw, without a request", async () => {
    const configDir = tempDir("tracker-cfg-");
    expect(lines((await complete(["query", "--dataset", "logs", "-F", ""], configDir)).stdout)).toEqual([]);
    await run(["acme/web", "--dataset", "logs"], { configDir });
    await run(["acme/web", "--dataset", "spans", "-n", "5"], { configDir });
    api.reset();
    const logs = await complete(["query", "acme/web", "--dataset", "logs", "-F", "tags"], configDir);
    expect(lines(logs.stdout)).toEqual(["tags[retry_count,number]"]);
    const spans = await complete(["query", "--dataset=spans", "--field", "span."], configDir);
    expect(lines(spans.stdout)).toEqual(["span.op", "span.description", "span.duration"]);
    const fields = await complete(["span", "list", "--fields", "id,span.d"], configDir);
    expect(lines(fields.stdout)).toEqual(["id,span.description", "id,span.duration"]);
    // A limited listing saves what it saw; -q listings save nothing.
    expect(
      lines((await complete(["query", "--dataset", "spans", "-F", "payment"], configDir)).stdout),
    ).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  test("keys that are shell code are never offered", async () => {
    const configDir = tempDir("tracker-cfg-");
    await run(["acme/web", "--dataset", "logs"], { configDir });
    const db = new Database(join(configDir, "tracker.db"));
    db.run("UPDATE attribute_keys SET keys_json = ?", [
      JSON.stringify(["ok.key", "x$(touch pwned)", "a`b`"]),
    ]);
    db.close();
    const r = await complete(["query", "--dataset", "logs", "-F", ""], configDir);
    expect(lines(r.stdout)).toEqual(["ok.key"]);
  });
});
