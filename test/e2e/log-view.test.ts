import { describe, expect, test } from "bun:test";
import { addLog, MULTILINE_LOG } from "../fake-api/routes/logs.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const api = useFakeApi({ afterReset: (a) => a.state.store.delete("logs") });
const view = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(["log", "view", ...args], { api, token: USER_TOKEN, ...opts });

describe("log view (real CLI)", () => {
  test("every attribute as an aligned list: the lookup by sentry.item_id, then its trace item (custom attributes)", async () => {
    const configDir = tempDir();
    await view([MULTILINE_LOG, "acme/web"], { configDir });
    api.reset();
    const r = await view([MULTILINE_LOG, "acme/web"], { configDir });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path)).toEqual([
      EVENTS,
      `/api/0/projects/acme/web/trace-items/${MULTILINE_LOG}/`,
    ]);
    expect(api.requests[1]?.query.get("item_type")).toBe("logs");
    expect(api.requests[1]?.query.get("trace_id")).toBe(TRACE_NESTED);
    expect(api.requests[0]?.query.get("query")).toBe(`sentry.item_id:${MULTILINE_LOG}`);
    expect(api.requests[0]?.query.getAll("field")).toHaveLength(17);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`sentry.item_id     ${MULTILINE_LOG}`);
    expect(lines).toContain("timestamp_precise  1768478339757109003");
    expect(lines).toContain("message            request started ⏎ user=42 agent=curl");
    expect(lines).toContain(`trace              ${TRACE_NESTED}`);
    expect(lines).toContain("span_id            -");
    expect(lines).toContain("code.line.number   43");
  });

  test("a custom attribute the field list does not name (payment.provider) is shown, in text and --json", async () => {
    addLog(api.state, "7".repeat(32), 1_000, {
      trace: TRACE_NESTED,
      attributes: { environment: "production", "payment.provider": "stripe", "cart.items": "3" },
    });
    const text = await view(["7".repeat(32), "acme/web"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split("\n")).toContain("payment.provider   stripe");
    const json = await view(["7".repeat(32), "acme/web", "--json"]);
    expect(JSON.parse(json.stdout).attributes).toMatchObject({
      "payment.provider": "stripe",
      "cart.items": "3",
    });
  });

  test("a server without trace-item details (404): the queried fields, no error", async () => {
    api.inject({
      path: `/api/0/projects/acme/web/trace-items/${MULTILINE_LOG}/`,
      status: 404,
      body: { detail: "Not found" },
    });
    const r = await view([MULTILINE_LOG, "acme/web"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("code.line.number   43");
  });

  test("a bare organization (log view <id> acme) searches all its projects, as acme/ does", async () => {
    const r = await view([MULTILINE_LOG, "acme", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)["sentry.item_id"]).toBe(MULTILINE_LOG);
    expect(api.requestsTo(EVENTS)[0]?.query.get("project")).toBe("-1");
  });

  test("--json: the item as the service sent it, nanoseconds exact", async () => {
    const r = await view([MULTILINE_LOG, "acme/", "--json"]);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      "sentry.item_id": MULTILINE_LOG,
      timestamp_precise: "1768478339757109003",
      message: "request started\nuser=42\tagent=curl",
      environment: "production",
    });
    expect(api.requestsTo(EVENTS)[0]?.query.get("project")).toBe("-1");
  });

  test("a huge body prints within the terminal width", async () => {
    addLog(api.state, "9".repeat(32), 1_000, { message: "z".repeat(1_000_000) });
    const r = await view(["9".repeat(32), "acme/web"], {
      terminal: { stdout: true },
      env: { COLUMNS: "80" },
    });
    expect(r.exitCode).toBe(0);
    for (const l of r.stdout.trimEnd().split("\n")) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(80);
  });

  test("unknown id: resolution error (23); malformed id: validation error (21) before any request", async () => {
    const miss = await view(["0".repeat(32), "acme/web"]);
    expect(miss.exitCode).toBe(23);
    expect(miss.stderr).toContain(`Log ${"0".repeat(32)} was not found in acme/web`);
    api.reset();
    const bad = await view(["xyz", "acme/web", "--json"]);
    expect(bad.exitCode).toBe(21);
    expect(JSON.parse(bad.stderr).error.message).toContain("Invalid log ID");
    expect(api.requests).toEqual([]);
  });
});
