/**
 * `tracker mcp` as a real client meets it: the official SDK `Client` over stdio, against the
 * compiled binary when TRACKER_TEST_BINARY is set (CI's binary step), else the source entry.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LARGE_TRACE_SPANS, TRACE_LARGE } from "../../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { cliCommand, tempDir } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();
const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(args: string[] = []): Promise<Client> {
  const [command, ...rest] = cliCommand() as [string, ...string[]];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  Object.assign(env, {
    TRACKER_CONFIG_DIR: tempDir("tracker-mcp-sdk-"),
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
  });
  const transport = new StdioClientTransport({
    command,
    args: [...rest, "mcp", ...args],
    env,
    cwd: tempDir("tracker-mcp-cwd-"),
    stderr: "pipe",
  });
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

type Result = { isError?: boolean; content: { type: string; text: string }[] };
const textOf = (r: unknown) => ((r as Result).content[0] as { text: string }).text;

describe("tracker mcp with the official SDK client", () => {
  test("instructions, and every tool annotated (reads read-only and idempotent) within 10 KB (issue 34)", async () => {
    const client = await connect(["--allow-writes"]);
    expect(client.getInstructions()).toContain("tracker's commands as tools");
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools).length).toBeLessThan(10 * 1024);
    for (const t of tools) {
      expect(t.title).toBeString();
      expect(t.annotations?.openWorldHint).toBe(true);
      expect(typeof t.annotations?.readOnlyHint).toBe("boolean");
      expect(typeof t.annotations?.destructiveHint).toBe("boolean");
      expect(typeof t.annotations?.idempotentHint).toBe("boolean");
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.issue_list).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.issue_update).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.issue_note).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.issue_explain).toMatchObject({ readOnlyHint: false });
  });

  test("the data tools: logs, spans, queries, issue tags, my plate", async () => {
    const client = await connect();
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as Result;
      expect(r.isError).toBeFalsy();
      return JSON.parse(textOf(r));
    };
    expect((await call("log_search", { target: "acme/web", limit: 5 })).data.length).toBeGreaterThan(0);
    expect(
      (await call("span_search", { target: "acme/web", sort: "duration", limit: 3 })).data.length,
    ).toBeGreaterThan(0);
    const table = await call("query", {
      target: "acme/",
      dataset: "spans",
      select: ["transaction", "count()"],
      limit: 5,
    });
    expect(table.data.length).toBeGreaterThan(0);
    expect(Array.isArray(await call("issue_tags", { issue: "acme/WEB-4Y" }))).toBe(true);
  });

  test("every result has a default bound: a 2,000-span trace_view fits 25,000 characters; maxChars overrides", async () => {
    const client = await connect();
    const bounded = textOf(
      await client.callTool({ name: "trace_view", arguments: { trace: TRACE_LARGE, org: "acme" } }),
    );
    expect(bounded.length).toBeLessThanOrEqual(25_000);
    const doc = JSON.parse(bounded);
    expect(doc.traceId).toBe(TRACE_LARGE);
    expect(doc.truncated).toBeDefined();
    const small = textOf(
      await client.callTool({
        name: "trace_view",
        arguments: { trace: TRACE_LARGE, org: "acme", maxChars: 5000 },
      }),
    );
    expect(small.length).toBeLessThanOrEqual(5000);
    expect(JSON.parse(small).traceId).toBe(TRACE_LARGE);
    expect(LARGE_TRACE_SPANS).toBe(2000);
    // The server still answers after the big ones.
    expect(await client.ping()).toEqual({});
  });

  test("invalid arguments are an isError result, said once", async () => {
    const client = await connect();
    const r = (await client.callTool({ name: "issue_list", arguments: { limit: "ten" } })) as Result;
    expect(r.isError).toBe(true);
    const message = JSON.parse(textOf(r)).error.message as string;
    expect(message).toBe("issue_list: 'limit' must be integer");
    expect(message).not.toContain("MCP error");
  });

  test("a cancelled call stops its work and the next call is answered at once", async () => {
    const client = await connect();
    api.inject({ path: "/api/0/organizations/", delayMs: 30_000 });
    const aborter = new AbortController();
    const slow = client.callTool({ name: "org_list", arguments: {} }, undefined, { signal: aborter.signal });
    await Bun.sleep(300);
    aborter.abort();
    await expect(slow).rejects.toThrow();
    const started = Date.now();
    const next = await client.callTool({ name: "issue_view", arguments: { issue: "acme/WEB-4Y" } });
    expect((next as Result).isError).toBeFalsy();
    // The queue was not waiting for the 30 s answer (a generous bound on a busy machine).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("project_list {} lists the projects of every organization", async () => {
    const client = await connect();
    const projects = JSON.parse(textOf(await client.callTool({ name: "project_list", arguments: {} }))) as {
      slug: string;
    }[];
    const requested = new Set(api.requests.map((r) => r.path).filter((p) => p.endsWith("/projects/")));
    expect(requested).toEqual(
      new Set([
        "/api/0/organizations/acme/projects/",
        "/api/0/organizations/globex/projects/",
        "/api/0/organizations/initech/projects/",
      ]),
    );
    expect(projects.map((p) => p.slug)).toContain("web");
  });

  test("issue_explain with force starts a new AI run: refused without --allow-writes, nothing sent", async () => {
    const client = await connect();
    const r = (await client.callTool({
      name: "issue_explain",
      arguments: { issue: "acme/WEB-4Y", force: true },
    })) as Result;
    expect(r.isError).toBe(true);
    expect(JSON.parse(textOf(r)).error).toMatchObject({
      code: 2,
      hint: "Start the server with: tracker mcp --allow-writes",
    });
    expect(api.requests).toEqual([]);
  });

  test("issue_update reports what it changed when a later step fails", async () => {
    const client = await connect(["--allow-writes"]);
    const r = (await client.callTool({
      name: "issue_update",
      arguments: { issues: ["acme/WEB-1"], status: "resolved", assignee: "nobody-known@example.invalid" },
    })) as Result;
    expect(r.isError).toBe(true);
    const doc = JSON.parse(textOf(r));
    expect(doc.error.code).toBeGreaterThan(0);
    expect(doc.done.changed.map((c: { shortId: string }) => c.shortId)).toEqual(["WEB-1"]);
  });
});

test.skipIf(!Bun.which("script"))(
  "started by hand on a terminal, tracker mcp says what it is on stderr",
  async () => {
    const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const cmd = `TRACKER_CONFIG_DIR=${quote(tempDir("tracker-mcp-tty-"))} ${cliCommand().map(quote).join(" ")} mcp`;
    const proc = Bun.spawn(["script", "-qec", cmd, "/dev/null"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    await Bun.sleep(1500);
    proc.stdin.write("\x04");
    proc.stdin.end();
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out).toContain("tracker mcp speaks the Model Context Protocol on stdio (Ctrl-D ends it).");
  },
);
