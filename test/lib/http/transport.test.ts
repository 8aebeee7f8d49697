import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { ConfigError, NetworkError } from "../../../src/lib/errors.ts";
import { apiRequest } from "../../../src/lib/http/client.ts";
import { classifyFetchFailure } from "../../../src/lib/http/errors.ts";
import { matchesNoProxy, proxyFor } from "../../../src/lib/http/transport.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const ORGS = "/api/0/organizations/";
const Orgs = v.array(v.object({ slug: v.string() }));

/** A tiny forward proxy for plain-HTTP targets that records the request lines it sees. */
function startProxy() {
  const seen: { target: string; auth: string | null; proxyAuth: string | null }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      seen.push({
        target: `${req.method} ${req.url}`,
        auth: req.headers.get("authorization"),
        proxyAuth: req.headers.get("proxy-authorization"),
      });
      const headers = new Headers(req.headers);
      headers.delete("proxy-authorization");
      const res = await fetch(req.url, { method: req.method, headers });
      return new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, seen, stop: () => server.stop(true) };
}

/** A seeded PRNG (mulberry32) so property runs are reproducible. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("proxy (HTTP_PROXY / HTTPS_PROXY / NO_PROXY)", () => {
  test("HTTP_PROXY routes the request through the proxy, token intact", async () => {
    const proxy = startProxy();
    try {
      const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN, HTTP_PROXY: proxy.url } });
      const res = await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
      expect(res.data).toHaveLength(3);
      expect(proxy.seen).toEqual([
        { target: `GET ${api.url}${ORGS}`, auth: `Bearer ${USER_TOKEN}`, proxyAuth: null },
      ]);
      expect(api.requestsTo(ORGS)).toHaveLength(1);
    } finally {
      proxy.stop();
    }
  });

  test("lower-case http_proxy works too; proxy credentials are sent to the proxy and hidden in logs", async () => {
    const proxy = startProxy();
    try {
      const withCreds = proxy.url.replace("http://", "http://alice:s3cret@");
      const t = createTestContext({
        api,
        logLevel: "trace",
        env: { TRACKER_AUTH_TOKEN: USER_TOKEN, http_proxy: withCreds },
      });
      await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]?.proxyAuth).toBe(`Basic ${btoa("alice:s3cret")}`);
      expect(t.stderr()).toContain(`via proxy http://[REDACTED]@127.0.0.1:${proxy.port}/`);
      expect(t.stderr()).not.toContain("s3cret");
    } finally {
      proxy.stop();
    }
  });

  for (const noProxy of ["127.0.0.1", "localhost,127.0.0.1", "*", "127.0.0.1:PORT"]) {
    test(`NO_PROXY=${noProxy} bypasses the proxy`, async () => {
      const proxy = startProxy();
      try {
        const t = createTestContext({
          api,
          env: {
            TRACKER_AUTH_TOKEN: USER_TOKEN,
            HTTP_PROXY: proxy.url,
            NO_PROXY: noProxy.replace("PORT", new URL(api.url).port),
          },
        });
        await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
        expect(proxy.seen).toEqual([]);
        expect(api.requestsTo(ORGS)).toHaveLength(1);
      } finally {
        proxy.stop();
      }
    });
  }

  test("a NO_PROXY entry for another port does not bypass", async () => {
    const proxy = startProxy();
    try {
      const t = createTestContext({
        api,
        env: { TRACKER_AUTH_TOKEN: USER_TOKEN, HTTP_PROXY: proxy.url, no_proxy: "127.0.0.1:1" },
      });
      await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
      expect(proxy.seen).toHaveLength(1);
    } finally {
      proxy.stop();
    }
  });

  test("proxyFor picks the variable by scheme", () => {
    const env = { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" };
    expect(proxyFor(env, "https://sentry.io/api/0/")).toBe("http://s:1");
    expect(proxyFor(env, "http://sentry.internal/api/0/")).toBe("http://p:2");
    expect(proxyFor({ HTTP_PROXY: "http://p:2" }, "https://sentry.io/")).toBe("http://p:2");
    expect(proxyFor({ https_proxy: "http://l:3" }, "https://sentry.io/")).toBe("http://l:3");
    expect(proxyFor({ HTTPS_PROXY: "  " }, "https://sentry.io/")).toBeUndefined();
    expect(proxyFor({}, "https://sentry.io/")).toBeUndefined();
    expect(
      proxyFor({ HTTPS_PROXY: "http://s:1", NO_PROXY: ".sentry.io" }, "https://us.sentry.io/"),
    ).toBeUndefined();
    expect(
      proxyFor({ HTTPS_PROXY: "http://s:1", NO_PROXY: "sentry.io:443" }, "https://sentry.io/"),
    ).toBeUndefined();
    expect(proxyFor({ HTTPS_PROXY: "http://s:1", NO_PROXY: "sentry.io:8443" }, "https://sentry.io/")).toBe(
      "http://s:1",
    );
  });
});

describe("NO_PROXY matching", () => {
  test("examples", () => {
    expect(matchesNoProxy("sentry.io", "443", undefined)).toBe(false);
    expect(matchesNoProxy("sentry.io", "443", "")).toBe(false);
    expect(matchesNoProxy("us.sentry.io", "443", "sentry.io")).toBe(true);
    expect(matchesNoProxy("us.sentry.io", "443", ".sentry.io")).toBe(true);
    expect(matchesNoProxy("us.sentry.io", "443", "*.sentry.io")).toBe(true);
    expect(matchesNoProxy("notsentry.io", "443", "sentry.io")).toBe(false);
    expect(matchesNoProxy("SENTRY.IO", "443", "Sentry.Io")).toBe(true);
    expect(matchesNoProxy("::1", "80", "::1")).toBe(true);
    expect(matchesNoProxy("[::1]", "8080", "[::1]:8080")).toBe(true);
    expect(matchesNoProxy("::1", "8080", "[::1]:9090")).toBe(false);
    expect(matchesNoProxy("a.example", "80", " other.example ,  a.example ")).toBe(true);
    expect(matchesNoProxy("a.example", "80", "other.example a.example")).toBe(true);
  });

  test("properties over random host names (seeded)", () => {
    const seed = 20260115;
    const rand = rng(seed);
    const label = () =>
      Array.from(
        { length: 1 + Math.floor(rand() * 8) },
        () => "abcdefghijklmnopqrstuvwxyz0123456789-"[Math.floor(rand() * 37)],
      ).join("");
    const domain = () => Array.from({ length: 1 + Math.floor(rand() * 3) }, label).join(".");
    for (let i = 0; i < 500; i++) {
      const d = domain();
      const sub = `${label()}.${d}`;
      const port = String(1 + Math.floor(rand() * 65535));
      const other = String(((Number(port) + 1) % 65535) + 1);
      const why = `seed ${seed}, case ${i}: ${d} / ${sub} / ${port}`;
      // A domain entry covers itself and its subdomains, with or without a leading dot.
      expect(matchesNoProxy(d, port, d), why).toBe(true);
      expect(matchesNoProxy(sub, port, d), why).toBe(true);
      expect(matchesNoProxy(sub, port, `.${d}`), why).toBe(true);
      // It never covers a host that merely ends with the same characters.
      expect(matchesNoProxy(`x${d}`, port, d), why).toBe(false);
      // A port-qualified entry only covers that port.
      expect(matchesNoProxy(sub, port, `${d}:${port}`), why).toBe(true);
      expect(matchesNoProxy(sub, port, `${d}:${other}`), why).toBe(false);
      // Case and list position do not matter; `*` covers everything.
      expect(matchesNoProxy(sub.toUpperCase(), port, `unrelated.test, ${d.toUpperCase()}`), why).toBe(true);
      expect(matchesNoProxy(sub, port, "*"), why).toBe(true);
      // An unrelated entry never matches.
      expect(matchesNoProxy(sub, port, `${d}.invalid`), why).toBe(false);
    }
  });
});

describe("CA bundles (NODE_EXTRA_CA_CERTS / SSL_CERT_FILE)", () => {
  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"]) {
    test(`${name} pointing at a missing file is a ConfigError (exit 20) before anything is sent`, async () => {
      const t = createTestContext({
        env: {
          TRACKER_AUTH_TOKEN: USER_TOKEN,
          TRACKER_URL: "https://127.0.0.1:1",
          [name]: "/nonexistent/ca.pem",
        },
      });
      let err: unknown;
      try {
        await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).exitCode).toBe(20);
      expect((err as ConfigError).format()).toStartWith("Cannot read the CA bundle /nonexistent/ca.pem: ");
      expect((err as ConfigError).format()).toEndWith(
        "\n\nSuggestion: Point NODE_EXTRA_CA_CERTS or SSL_CERT_FILE at a readable PEM file, or unset it.",
      );
      expect(t.sleeps).toEqual([]);
    });
  }
});

const openssl = Bun.which("openssl");

describe.skipIf(!openssl)("TLS against a local HTTPS server with a self-signed certificate", () => {
  let server: ReturnType<typeof Bun.serve>;
  let certFile: string;
  let hits = 0;
  beforeAll(async () => {
    const dir = tempDir("tracker-tls-");
    certFile = join(dir, "cert.pem");
    const keyFile = join(dir, "key.pem");
    const gen = Bun.spawnSync([
      openssl as string,
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]);
    if (gen.exitCode !== 0) throw new Error(`openssl failed: ${gen.stderr.toString()}`);
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: await Bun.file(certFile).text(), key: await Bun.file(keyFile).text() },
      fetch: () => {
        hits++;
        return Response.json([{ slug: "tls-org" }]);
      },
    });
  });
  afterAll(() => server?.stop(true));

  test("an untrusted certificate: NetworkError explaining the CA variables, not retried", async () => {
    const t = createTestContext({
      env: { TRACKER_AUTH_TOKEN: USER_TOKEN, TRACKER_URL: `https://127.0.0.1:${server.port}` },
    });
    let err: unknown;
    try {
      await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NetworkError);
    const text = (err as NetworkError).format();
    expect(text).toStartWith(`TLS verification failed for 127.0.0.1:${server.port}: self signed certificate`);
    expect(text).toContain("NODE_EXTRA_CA_CERTS (or SSL_CERT_FILE)");
    expect(t.sleeps).toEqual([]);
    expect(hits).toBe(0);
  });

  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"]) {
    test(`${name} with the server's certificate makes the request succeed`, async () => {
      const t = createTestContext({
        env: {
          TRACKER_AUTH_TOKEN: USER_TOKEN,
          TRACKER_URL: `https://127.0.0.1:${server.port}`,
          [name]: certFile,
        },
      });
      const res = await apiRequest(t.ctx, { path: ORGS, schema: Orgs });
      expect(res.data).toEqual([{ slug: "tls-org" }]);
    });
  }
});

describe("failure classification", () => {
  const url = "https://sentry.example.com/api/0/";
  test("TLS codes are final, with the CA hint", () => {
    for (const [code, message] of [
      ["CERT_HAS_EXPIRED", "certificate has expired"],
      ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"],
      ["ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames"],
      ["SELF_SIGNED_CERT_IN_CHAIN", "self signed certificate in certificate chain"],
    ]) {
      const f = classifyFetchFailure(Object.assign(new TypeError(message), { code }), url, 30_000);
      expect(f.retryable).toBe(false);
      expect(f.error.message).toStartWith("TLS verification failed for sentry.example.com: ");
    }
  });

  test("timeouts are final; connection failures are retryable", () => {
    const timeout = classifyFetchFailure(new DOMException("timed out", "TimeoutError"), url, 30_000);
    expect(timeout).toMatchObject({ retryable: false });
    expect(timeout.error.message).toBe("Request to sentry.example.com timed out after 30 s.");
    const refused = classifyFetchFailure(
      Object.assign(new TypeError("Unable to connect. Is the computer able to access the url?"), {
        code: "ECONNREFUSED",
      }),
      url,
      30_000,
    );
    expect(refused.retryable).toBe(true);
    expect(refused.error.message).toBe("Could not connect to sentry.example.com: connection refused");
    const odd = classifyFetchFailure(
      Object.assign(
        new TypeError(
          "Something odd. For more information, pass `verbose: true` in the second argument to fetch()",
        ),
        {
          code: "EWHATEVER",
        },
      ),
      url,
      30_000,
    );
    expect(odd.error.message).toBe("Could not connect to sentry.example.com: Something odd.");
  });
});
