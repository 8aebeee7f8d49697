import { expect, test } from "bun:test";
import { faults } from "../fake-api/http.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const REGIONS = "/api/0/users/me/regions/";

test("--log-level trace logs every request and response with the token redacted; stdout stays data", async () => {
  const r = await runCli(["org", "list", "--log-level", "trace", "--json"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  expect((JSON.parse(r.stdout) as unknown[]).length).toBe(3);
  expect(r.stderr).toContain(`[trace] → GET ${api.url}${REGIONS}\n`);
  expect(r.stderr).toMatch(
    new RegExp(
      `\\[trace\\] ← 200 GET ${api.url.replace(/\./g, "\\.")}/api/0/users/me/regions/ \\(\\d+ ms\\)`,
    ),
  );
  for (const region of [api.urls.us, api.urls.de]) {
    expect(r.stderr).toContain(`[trace] → GET ${region}/api/0/organizations/?per_page=100\n`);
  }
  expect(r.stderr).toContain("    authorization: [REDACTED]\n");
  expect(r.stderr).toContain("    user-agent: tracker/");
  expect(r.stderr).not.toContain(USER_TOKEN);
});

test("a 429 with Retry-After: 0 is retried by the real CLI", async () => {
  api.inject(faults.rateLimited({ retryAfter: "0" }, { path: REGIONS }));
  const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  expect(api.requestsTo(REGIONS).map((q) => q.status)).toEqual([429, 200]);
});

test("TRACKER_URL pointing at a web page: ApiError (exit 30), not a crash", async () => {
  api.inject({
    path: REGIONS,
    status: 200,
    raw: "<html><head><title>Welcome to nginx!</title></head><body></body></html>",
    headers: { "Content-Type": "text/html" },
  });
  const r = await runCli(["org", "list"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(30);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe(
    "Error: Unexpected response from GET /api/0/users/me/regions/: not JSON\n  Welcome to nginx!\n\nCheck that TRACKER_URL points at the service's address.\n",
  );
});

test("HTTP_PROXY in the process environment routes the CLI's requests through the proxy", async () => {
  const seen: string[] = [];
  const proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      seen.push(`${req.method} ${new URL(req.url).pathname}`);
      const res = await fetch(req.url, { method: req.method, headers: req.headers });
      return new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers });
    },
  });
  try {
    const r = await runCli(["org", "list", "--json"], {
      api,
      token: USER_TOKEN,
      env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` },
    });
    expect(r.exitCode).toBe(0);
    expect(seen.sort()).toEqual([
      "GET /api/0/organizations/",
      "GET /api/0/organizations/",
      "GET /api/0/users/me/regions/",
    ]);
  } finally {
    proxy.stop(true);
  }
});

test("tracker's NO_PROXY decision holds even where Bun's built-in env proxy would differ", async () => {
  const seen: string[] = [];
  const proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      seen.push(req.url);
      return new Response("proxy must not be used", { status: 502 });
    },
  });
  try {
    // A leading-dot suffix entry: tracker bypasses every host ending in it; Bun alone would not here.
    const r = await runCli(["org", "list", "--json"], {
      api,
      token: USER_TOKEN,
      env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: ".0.0.1" },
    });
    expect(r.exitCode).toBe(0);
    expect(seen).toEqual([]);
  } finally {
    proxy.stop(true);
  }
});

test("a bad NODE_EXTRA_CA_CERTS path is a ConfigError (exit 20) with a suggestion", async () => {
  const r = await runCli(["org", "list"], {
    token: USER_TOKEN,
    env: { TRACKER_URL: "https://127.0.0.1:1", NODE_EXTRA_CA_CERTS: "/nonexistent/ca.pem" },
  });
  expect(r.exitCode).toBe(20);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith("Error: Cannot read the CA bundle /nonexistent/ca.pem: ");
  expect(r.stderr).toEndWith(
    "\n\nSuggestion: Point NODE_EXTRA_CA_CERTS or SSL_CERT_FILE at a readable PEM file, or unset it.\n",
  );
});

test("503 on every attempt: three requests (Retry-After: 0 keeps it fast), then exit 30 with the detail", async () => {
  api.inject(
    faults.gateway(503, {
      path: REGIONS,
      times: 5,
      headers: { "Retry-After": "0", "Content-Type": "text/html" },
    }),
  );
  const r = await runCli(["org", "list"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(30);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe("Error: Request failed with status 503\n  503 Service Temporarily Unavailable\n");
  expect(api.requestsTo(REGIONS)).toHaveLength(3);
});
