/**
 * A fake Sentry API that behaves like API.md describes: a control listener and two region
 * listeners on 127.0.0.1, bearer-token checks with scopes, Link-header paging, fault injection,
 * and a request log tests assert on. Unregistered paths answer 501 and land in `unmatched`.
 */
import { detail } from "./http.ts";
import { allRoutes } from "./routes/index.ts";
import { createSeedState } from "./seed.ts";
import type { Fault, FakeRequest, FakeState, HostName, RecordedRequest, Route } from "./types.ts";

/** A running fake API. */
export interface FakeApi {
  /** Control-silo base URL (what TRACKER_URL points at). */
  url: string;
  urls: Record<HostName, string>;
  state: FakeState;
  requests: RecordedRequest[];
  unmatched: RecordedRequest[];
  /** Adds a fault for the next matching request(s). */
  inject(fault: Fault): void;
  /** Injected faults that no request has triggered yet (a test whose fault never fired proves nothing). */
  unfiredFaults(): Fault[];
  /** Clears the request log and pending faults. */
  reset(): void;
  /** Requests whose path matches (string: exact path; RegExp: test). */
  requestsTo(path: string | RegExp, method?: string): RecordedRequest[];
  stop(): void;
}

interface CompiledRoute {
  route: Route;
  parts: string[];
}

function compile(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((route) => ({ route, parts: route.pattern.split("/").filter(Boolean) }));
}

function match(c: CompiledRoute, method: string, path: string): Record<string, string> | undefined {
  if (c.route.method !== method) return undefined;
  const segs = path.split("/").filter(Boolean);
  if (segs.length !== c.parts.length || !path.endsWith("/")) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segs.length; i++) {
    const p = c.parts[i] as string;
    const s = decodeURIComponent(segs[i] as string);
    if (p.startsWith(":")) params[p.slice(1)] = s;
    else if (p !== s) return undefined;
  }
  return params;
}

function faultMatches(f: Fault, method: string, host: HostName, path: string): boolean {
  if (f.method && f.method !== method) return false;
  if (f.host && f.host !== host) return false;
  if (f.path === undefined) return true;
  return typeof f.path === "string" ? f.path === path : f.path.test(path);
}

/**
 * The response a fault stands for. Erroring the body stream without a reason makes Bun reset the
 * socket quietly, which is what a dropped connection looks like to the client.
 */
function faultResponse(f: Fault): Response {
  const text = f.raw ?? (f.body === undefined ? "" : JSON.stringify(f.body));
  const headers: Record<string, string> = {
    ...(f.raw === undefined && f.body !== undefined ? { "Content-Type": "application/json" } : {}),
    ...f.headers,
  };
  const status = f.status ?? 200;
  if (f.disconnect === "before-response") {
    return new Response(
      new ReadableStream({
        start: (c) => c.error(),
      }),
      { status, headers },
    );
  }
  const bytes = new TextEncoder().encode(text);
  if (f.disconnect === "mid-body") {
    let sent = false;
    return new Response(
      new ReadableStream({
        async pull(c) {
          if (sent) return c.error();
          sent = true;
          c.enqueue(bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2))));
          // Give the first chunk time to reach the client before the reset.
          await Bun.sleep(5);
        },
      }),
      { status, headers },
    );
  }
  if (f.chunked) {
    let at = 0;
    return new Response(
      new ReadableStream({
        pull(c) {
          if (at >= bytes.length) return c.close();
          c.enqueue(bytes.slice(at, at + 1024 * 1024));
          at += 1024 * 1024;
        },
      }),
      { status, headers },
    );
  }
  if (f.dripMs) {
    const every = f.dripMs;
    let at = 0;
    return new Response(
      new ReadableStream({
        async pull(c) {
          if (at >= bytes.length) return c.close();
          await Bun.sleep(every);
          c.enqueue(bytes.slice(at, at + 1));
          at++;
        },
      }),
      { status, headers },
    );
  }
  if (f.bodyDelayMs) {
    const delay = f.bodyDelayMs;
    return new Response(
      new ReadableStream({
        async start(c) {
          await Bun.sleep(delay);
          c.enqueue(bytes);
          c.close();
        },
      }),
      { status, headers },
    );
  }
  return new Response(text, { status, headers });
}

/** Options of startFakeApi. */
export interface FakeApiOptions {
  /** Extra routes (checked before the built-in ones). */
  routes?: Route[];
  /** Mutates the seed state before serving. */
  setup?: (state: FakeState) => void;
  /** Fixed port of the control listener (the sandbox); the regions take the next two. Tests use 0. */
  port?: number;
  /** Wait this long before answering every request (the bench's latency mode: a distant service). */
  latencyMs?: number;
}

/** Starts the fake API on 127.0.0.1 (port 0 unless given). */
export async function startFakeApi(opts: FakeApiOptions = {}): Promise<FakeApi> {
  const compiled = compile([...(opts.routes ?? []), ...allRoutes]);
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  let faults: (Fault & { left: number; fired: number })[] = [];
  const urls = { control: "", us: "", de: "" } as Record<HostName, string>;
  const state = createSeedState(urls);

  let answeredRound = 0;
  const handle = async (host: HostName, raw: Request): Promise<Response> => {
    const round = answeredRound + 1;
    // Latency is the network's, not the server's: it is not counted in serverMs.
    if (opts.latencyMs) await Bun.sleep(opts.latencyMs);
    const arrived = performance.now();
    const url = new URL(raw.url);
    const body = raw.method === "GET" || raw.method === "HEAD" ? "" : await raw.text();
    const rec: RecordedRequest = {
      method: raw.method,
      host,
      path: url.pathname,
      query: url.searchParams,
      headers: Object.fromEntries(raw.headers.entries()),
      body,
      status: 0,
      serverMs: 0,
      round,
    };
    requests.push(rec);
    const finish = (res: Response) => {
      rec.status = res.status;
      rec.serverMs = performance.now() - arrived;
      answeredRound = Math.max(answeredRound, round);
      return res;
    };
    const fault = faults.find((f) => f.left > 0 && faultMatches(f, raw.method, host, url.pathname));
    if (fault) {
      fault.left--;
      fault.fired++;
      if (fault.delayMs) await Bun.sleep(fault.delayMs);
      if (
        fault.status !== undefined ||
        fault.disconnect ||
        fault.bodyDelayMs ||
        fault.dripMs ||
        fault.chunked
      )
        return finish(faultResponse(fault));
    }
    for (const c of compiled) {
      const params = match(c, raw.method, url.pathname);
      if (!params) continue;
      const r = c.route;
      if (r.hosts === "control" && host !== "control") return finish(new Response("", { status: 404 }));
      if (r.hosts === "region" && host !== "control" && params.org) {
        const org = state.orgs.find((o) => o.slug === params.org || o.id === params.org);
        if (org && org.region !== host) return finish(new Response("", { status: 404 }));
      }
      let token: FakeRequest["token"];
      const auth = raw.headers.get("authorization");
      if (r.scopes) {
        if (!auth) return finish(detail(401, "Authentication credentials were not provided."));
        const m = /^Bearer (.+)$/.exec(auth);
        token = m ? state.tokens.get(m[1] as string) : undefined;
        if (!token) return finish(detail(401, "Invalid token"));
        if (token.expired) return finish(detail(401, "Token expired"));
        if (token.org && params.org && params.org !== token.org) {
          const org = state.orgs.find((o) => o.id === params.org);
          if (org?.slug !== token.org) return finish(detail(401, "Unauthorized organization access."));
        }
        if (r.scopes.length > 0 && !r.scopes.some((s) => token?.scopes.includes(s))) {
          return finish(detail(403, "You do not have permission to perform this action."));
        }
      }
      const req: FakeRequest = {
        method: raw.method,
        host,
        path: url.pathname,
        url,
        query: url.searchParams,
        params,
        headers: raw.headers,
        body,
        token,
        state,
      };
      return finish(await r.handler(req));
    }
    unmatched.push(rec);
    return finish(
      new Response(JSON.stringify({ detail: `fake API: no route for ${raw.method} ${url.pathname}` }), {
        status: 501,
      }),
    );
  };

  const servers = (["control", "us", "de"] as const).map((host, i) =>
    Bun.serve({
      hostname: "127.0.0.1",
      port: opts.port ? opts.port + i : 0,
      fetch: (req) => handle(host, req),
      error: () => new Response(null, { status: 500 }),
    }),
  );
  servers.forEach((s, i) => {
    urls[(["control", "us", "de"] as const)[i] as HostName] = `http://127.0.0.1:${s.port}`;
  });
  opts.setup?.(state);

  return {
    url: urls.control,
    urls,
    state,
    requests,
    unmatched,
    inject(f) {
      faults.push({ ...f, left: f.times ?? 1, fired: 0 });
    },
    unfiredFaults() {
      return faults.filter((f) => f.fired === 0).map(({ left: _l, fired: _f, ...f }) => f);
    },
    reset() {
      requests.length = 0;
      unmatched.length = 0;
      faults = [];
      answeredRound = 0;
    },
    requestsTo(path, method) {
      return requests.filter(
        (r) =>
          (method === undefined || r.method === method) &&
          (typeof path === "string" ? r.path === path : path.test(r.path)),
      );
    },
    stop() {
      for (const s of servers) s.stop(true);
    },
  };
}
