/** `span view` (API.md §22.10): the span's trace from the spans dataset, then its attributes. */
import { describe, expect, test } from "bun:test";
import { exploreStore } from "../fake-api/routes/explore-data.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], configDir?: string) => runCli(args, { api, token: USER_TOKEN, configDir });
const dbSpan = () => {
  const s = exploreStore(api.state).spans.find(
    (x) => x.projectId === "300001" && x.fields["span.op"] === "db.query",
  );
  if (!s) throw new Error("seed changed");
  return { id: String(s.fields.id), trace: String(s.fields.trace), fields: s.fields };
};

describe("span view", () => {
  test("a bare span id: its trace is looked up, then its attributes are read with the trace id", async () => {
    const span = dbSpan();
    const dir = tempDir("tracker-cfg-");
    const r = await run(["span", "view", span.id, "acme/web", "--json"], dir);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ spanId: span.id, traceId: span.trace, org: "acme", project: "web" });
    expect(doc.attributes.find((a: { name: string }) => a.name === "span.op")).toEqual({
      name: "span.op",
      type: "string",
      value: "db.query",
    });
    const lookup = api.requestsTo("/api/0/organizations/acme/events/")[0];
    expect([
      lookup?.query.get("dataset"),
      lookup?.query.get("query"),
      lookup?.query.get("statsPeriod"),
    ]).toEqual(["spans", `id:${span.id}`, "30d"]);
    const item = api.requestsTo(`/api/0/projects/acme/web/trace-items/${span.id}/`)[0];
    expect([item?.query.get("trace_id"), item?.query.get("item_type")]).toEqual([span.trace, "spans"]);
  });

  test("--trace: one request; the human view lists the attributes by name", async () => {
    const span = dbSpan();
    const r = await run(["span", "view", span.id, "acme/web", "--trace", span.trace]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(`Span ${span.id} (trace ${span.trace}, acme/web)`);
    expect(r.stdout).toMatch(/\n {2}span\.op +db\.query\n/);
    expect(api.requests.filter((q) => q.path.includes("/events/"))).toEqual([]);
  });

  test("a span the dataset does not know: a resolution error saying how to pass its trace", async () => {
    const r = await run(["span", "view", "0123456789abcdef", "acme/web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Span 0123456789abcdef was not found in acme/web in the last 30d.");
    expect(r.stderr).toContain("--trace <trace-id>");
  });

  test("a malformed span id: refused before any request", async () => {
    const r = await run(["span", "view", "xyz", "acme/web"]);
    expect(r).toEqual({
      exitCode: 21,
      stdout: "",
      stderr: "Error: 'xyz' is not a span ID (16 hex characters).\n",
    });
  });
});
