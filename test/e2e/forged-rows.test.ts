/**
 * Forged rows: server text with line breaks and tabs cannot add lines or shift columns in a
 * terminal's tables and views. Each case serves the fake API's own answer with one field made
 * hostile, runs the command on a (simulated) terminal and checks that the text stays on its line
 * (line breaks shown as ⏎, README "Server text in one-line places") and no raw tab reaches stdout.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const FORGED = "\nFORGED  row\tcell";
const api = useFakeApi();

/** The fake's own answer to `path?query` with `FORGED` appended to every string under `keys`. */
async function forged(base: string, pathQuery: string, keys: readonly string[]): Promise<unknown> {
  const res = await fetch(`${base}${pathQuery}`, { headers: { authorization: `Bearer ${USER_TOKEN}` } });
  expect(res.status).toBe(200);
  const forge = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(forge);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = keys.includes(k) && typeof x === "string" ? `${x}${FORGED}` : forge(x);
    return out;
  };
  return forge(await res.json());
}

function expectNoForgedRow(stdout: string): void {
  expect(stdout).toContain("⏎ FORGED");
  expect(stdout.split("\n").filter((l) => l.startsWith("FORGED"))).toEqual([]);
  expect(stdout).not.toContain("\t");
}

interface Case {
  args: string[];
  faults: { path: string; query: string; keys: string[]; times?: number; host?: "us" }[];
}

const ISSUES = "/api/0/organizations/acme/issues/";
const CASES: Record<string, Case> = {
  "issue list": {
    args: ["issue", "list", "acme/web"],
    faults: [{ path: ISSUES, query: "?project=300001&limit=25", keys: ["title", "culprit"] }],
  },
  status: {
    args: ["status", "acme"],
    faults: [{ path: ISSUES, query: "?project=300001&limit=3", keys: ["title"], times: 3 }],
  },
  "org list": {
    args: ["org", "list"],
    faults: [{ path: "/api/0/organizations/", query: "", keys: ["name"], host: "us" }],
  },
  "monitor list": {
    args: ["monitor", "list", "acme"],
    faults: [{ path: "/api/0/organizations/acme/monitors/", query: "", keys: ["name"] }],
  },
  "release view": {
    args: ["release", "view", "web@1.5.0", "acme"],
    faults: [
      {
        path: "/api/0/organizations/acme/releases/web%401.5.0/",
        query: "?health=1",
        keys: ["ref", "name", "email"],
      },
      {
        path: "/api/0/organizations/acme/releases/web%401.5.0/deploys/",
        query: "",
        keys: ["environment", "name"],
      },
    ],
  },
  query: {
    args: ["query", "acme/web", "--dataset", "errors", "-F", "title", "-F", "count()"],
    faults: [
      {
        path: "/api/0/organizations/acme/events/",
        query: "?dataset=errors&field=title&field=count%28%29&project=300001&per_page=25&statsPeriod=24h",
        keys: ["title"],
      },
    ],
  },
  "trace view --logs": {
    args: ["trace", "view", TRACE_NESTED, "acme", "--logs"],
    faults: [
      {
        path: `/api/0/organizations/acme/trace/${TRACE_NESTED}/`,
        query: "?limit=10000&project=-1&statsPeriod=14d",
        keys: ["description", "op", "title"],
      },
    ],
  },
  "sourcemap explain": {
    args: ["sourcemap", "explain", "acme/WEB-4Y"],
    faults: [
      {
        path: "/api/0/organizations/acme/issues/4158/events/latest/",
        query: "",
        keys: ["function"],
      },
    ],
  },
};

describe("forged rows on a terminal", () => {
  for (const [name, c] of Object.entries(CASES)) {
    test(name, async () => {
      const faults = [];
      for (const f of c.faults) {
        const base = f.host ? api.state.urls[f.host] : api.url;
        faults.push({
          path: f.path,
          status: 200,
          body: await forged(base, f.path + f.query, f.keys),
          times: f.times ?? 1,
          ...(f.host ? { host: f.host } : {}),
        });
      }
      api.reset();
      for (const f of faults) api.inject(f);
      const r = await runOnTerminal(c.args, { api, token: USER_TOKEN });
      expect(r.stderr).not.toContain("Error");
      expect(r.exitCode).toBe(0);
      expectNoForgedRow(r.stdout);
    });
  }
});

test("sourcemap inject: a file name with a line break stays on its line", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "dist"));
  const name = `app${FORGED}.js`;
  writeFileSync(join(dir, "dist", name), `a();\n//# sourceMappingURL=app.js.map\n`);
  writeFileSync(
    join(dir, "dist", "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: [] }),
  );
  const r = await runOnTerminal(["sourcemap", "inject", join(dir, "dist"), "--dry-run"], {
    api,
    token: USER_TOKEN,
  });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toContain("would inject");
  expectNoForgedRow(r.stdout);
});
