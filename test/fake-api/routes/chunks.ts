/**
 * Source maps (API.md §20): chunk-upload options, the chunk upload itself, artifact-bundle
 * assemble, the project's artifact bundles and their files, release files, Sentry's per-event
 * source-map debug answer, and events seeded for `sourcemap explain`.
 *
 * The fake's request log keeps bodies as text, which would lose the bytes of multipart chunks, so
 * the upload URL the options name is a small listener of its own on 127.0.0.1 (another port: the
 * client must accept it as the same host, as it accepts a region host). Its requests are logged in
 * `chunkStore(state).posts`.
 */
import { inflateRawSync } from "node:zlib";
import { detail, json, notFound } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { canSeeOrg, findOrg, findProject } from "./orgs.ts";
import { triageRoutes } from "./triage.ts";

/** A bundle the fake assembled. */
export interface FakeBundle {
  checksum: string;
  bundleId: string;
  org: string;
  projects: string[];
  release?: string;
  dist?: string;
  state: "created" | "assembling" | "ok" | "error";
  detail?: string;
  polls: number;
  manifest?: { files: Record<string, { type: string; url: string; headers: Record<string, string> }> };
}

/** The module's state and knobs. */
export interface ChunkStore {
  options: {
    chunkSize: number;
    chunksPerRequest: number;
    maxRequestSize: number;
    maxFileSize: number;
    concurrency: number;
    compression: string[];
    /** Overrides the upload URL the options name. */
    url?: string;
    /** Overrides what the options say the service accepts (API.md §21.2). */
    accept?: string[];
    /** Seconds the service asks clients to wait at most. */
    maxWait?: number;
  };
  /** Assemble polls answered `assembling` before `ok` (or the error below). */
  pollsBeforeDone: number;
  /** When set, assembly ends in `error` with this detail. */
  failWith?: string;
  /** A service that loses assembled bundles: a poll of a known one answers not_found. */
  forgetOnPoll?: boolean;
  chunks: Map<string, Uint8Array>;
  bundles: Map<string, FakeBundle>;
  /** Chunk POSTs: part field names and sha1s, Content-Encoding, bytes. */
  posts: { fields: string[]; names: string[]; bytes: number }[];
  events: Map<string, unknown>;
  debugAnswers: Map<string, unknown>;
  /** An older service: no per-event debug endpoint (404). */
  noDebugEndpoint: boolean;
  releaseFiles: Map<string, { name: string; dist?: string | null }[]>;
  server?: ReturnType<typeof Bun.serve>;
  /** Wait this long before answering each chunk POST (the bench's latency; default BENCH_LATENCY_MS). */
  latencyMs: number;
}

const KEY = "chunks";

/** The module's state (created on first use). */
export function chunkStore(state: FakeState): ChunkStore {
  let s = state.store.get(KEY) as ChunkStore | undefined;
  if (!s) {
    s = {
      options: {
        chunkSize: 8 * 1024 * 1024,
        chunksPerRequest: 64,
        maxRequestSize: 32 * 1024 * 1024,
        maxFileSize: 2 * 1024 * 1024 * 1024,
        concurrency: 8,
        compression: ["gzip"],
      },
      pollsBeforeDone: 0,
      chunks: new Map(),
      bundles: new Map(),
      posts: [],
      events: new Map(),
      debugAnswers: new Map(),
      noDebugEndpoint: false,
      releaseFiles: new Map(),
      latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 0) || 0,
    };
    state.store.set(KEY, s);
  }
  return s;
}

/** Hex SHA-1 of some bytes: a chunk's name, a file's checksum. */
export function sha1(b: Uint8Array): string {
  const h = new Bun.CryptoHasher("sha1");
  h.update(b);
  return h.digest("hex");
}

/** The chunk listener: multipart parts named by sha1, field `file` (raw) or `file_gzip`. */
function chunkServer(state: FakeState): string {
  const s = chunkStore(state);
  if (!s.server) {
    s.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        if (s.latencyMs) await Bun.sleep(s.latencyMs);
        const auth = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "");
        if (!auth || !state.tokens.has(auth[1] as string)) return json({ detail: "Invalid token" }, 401);
        if (req.method !== "POST") return json({ error: "Method not allowed" }, 405);
        const form = await req.formData();
        const entries = [...form.entries()];
        if (entries.length > s.options.chunksPerRequest) return json({ error: "Too many chunks" }, 400);
        const post = { fields: [] as string[], names: [] as string[], bytes: 0 };
        for (const [field, value] of entries) {
          if (typeof value === "string") continue;
          let bytes = new Uint8Array(await value.arrayBuffer());
          post.bytes += bytes.length;
          if (field === "file_gzip") bytes = Bun.gunzipSync(bytes);
          else if (field !== "file") continue;
          if (bytes.length > s.options.chunkSize) return json({ error: "Chunk size too large" }, 400);
          if (sha1(bytes) !== value.name) return json({ error: "Checksum mismatch" }, 400);
          post.fields.push(field);
          post.names.push(value.name);
          s.chunks.set(value.name, bytes);
        }
        s.posts.push(post);
        return new Response("", { status: 200 });
      },
    });
    s.server.unref();
  }
  return `http://127.0.0.1:${s.server.port}`;
}

/** Reads manifest.json from a zip (central directory, stored or deflated). */
export function readZipEntry(zip: Uint8Array, name: string): Uint8Array | undefined {
  const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  if (eocd < 0 || dv.getUint32(eocd, true) !== 0x06054b50) return undefined;
  let p = dv.getUint32(eocd + 16, true);
  const count = dv.getUint16(eocd + 10, true);
  for (let i = 0; i < count; i++) {
    const method = dv.getUint16(p + 10, true);
    const csize = dv.getUint32(p + 20, true);
    const nlen = dv.getUint16(p + 28, true);
    const elen = dv.getUint16(p + 30, true);
    const clen = dv.getUint16(p + 32, true);
    const off = dv.getUint32(p + 42, true);
    const entryName = new TextDecoder().decode(zip.subarray(p + 46, p + 46 + nlen));
    if (entryName === name) {
      const start = off + 30 + dv.getUint16(off + 26, true) + dv.getUint16(off + 28, true);
      const data = zip.subarray(start, start + csize);
      return method === 8 ? new Uint8Array(inflateRawSync(data)) : data;
    }
    p += 46 + nlen + elen + clen;
  }
  return undefined;
}

/** What a current service accepts through chunk upload (API.md §21.2). */
export const CHUNK_ACCEPT = [
  "debug_files",
  "release_files",
  "pdbs",
  "sources",
  "bcsymbolmaps",
  "il2cpp",
  "portablepdbs",
  "artifact_bundles",
  "artifact_bundles_v2",
  "proguard",
  "preprod_artifacts",
  "dartsymbolmap",
];

function options(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const s = chunkStore(req.state);
  const url = s.options.url ?? `${chunkServer(req.state)}/api/0/organizations/${org.slug}/chunk-upload/`;
  return json({
    ...s.options,
    url,
    hashAlgorithm: "sha1",
    accept: s.options.accept ?? CHUNK_ACCEPT,
  });
}

function assemble(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const s = chunkStore(req.state);
  const b = JSON.parse(req.body || "{}") as Record<string, unknown>;
  const extra = Object.keys(b).filter(
    (k) => !["checksum", "chunks", "projects", "version", "dist"].includes(k),
  );
  if (extra.length > 0)
    return json({ error: `Additional properties are not allowed (${extra.join(", ")})` }, 400);
  if (typeof b.checksum !== "string" || !/^[0-9a-f]{40}$/.test(b.checksum))
    return json(
      { error: "The checksum field is required and must be a 40-character hexadecimal string." },
      400,
    );
  const projects = Array.isArray(b.projects) ? (b.projects as string[]) : [];
  if (projects.length === 0) return json({ error: "You need to specify at least one project" }, 400);
  if (projects.some((p) => !findProject(req.state, org, p)))
    return json({ error: "One or more projects are invalid" }, 400);
  if (b.dist !== undefined && b.version === undefined)
    return json({ error: "You need to specify a release together with a dist" }, 400);
  const chunks = Array.isArray(b.chunks) ? (b.chunks as string[]) : [];
  const missing = chunks.filter((c) => !s.chunks.has(c));
  if (missing.length > 0) return json({ state: "not_found", missingChunks: missing });
  const known = s.bundles.get(b.checksum);
  if (known && s.forgetOnPoll) {
    s.bundles.delete(b.checksum);
    return json({ state: "not_found", missingChunks: [] });
  }
  if (known) {
    if (known.state === "created" || known.state === "assembling") {
      known.polls++;
      if (known.polls > s.pollsBeforeDone) {
        known.state = s.failWith ? "error" : "ok";
        if (s.failWith) known.detail = s.failWith;
      } else known.state = "assembling";
    }
    return json({ state: known.state, detail: known.detail ?? null, missingChunks: [] });
  }
  if (chunks.length === 0) return json({ state: "not_found", missingChunks: [] });
  const parts = chunks.map((c) => s.chunks.get(c) as Uint8Array);
  const zip = new Uint8Array(Buffer.concat(parts));
  const bundle: FakeBundle = {
    checksum: b.checksum,
    bundleId: "",
    org: org.slug,
    projects,
    ...(typeof b.version === "string" ? { release: b.version } : {}),
    ...(typeof b.dist === "string" ? { dist: b.dist } : {}),
    state: "created",
    polls: 0,
  };
  if (sha1(zip) !== b.checksum) Object.assign(bundle, { state: "error", detail: "Checksum mismatch" });
  else {
    const m = readZipEntry(zip, "manifest.json");
    if (!m) Object.assign(bundle, { state: "error", detail: "Invalid bundle: no manifest.json" });
    else {
      bundle.manifest = JSON.parse(new TextDecoder().decode(m));
      bundle.bundleId = String((bundle.manifest as { debug_id?: string }).debug_id ?? "");
    }
  }
  s.bundles.set(b.checksum, bundle);
  return json({ state: bundle.state, detail: bundle.detail ?? null, missingChunks: [] });
}

function projectOr404(req: FakeRequest) {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return undefined;
  const p = findProject(req.state, org, req.params.project ?? "");
  return p ? { org, p } : undefined;
}

function bundlesOf(req: FakeRequest): FakeBundle[] {
  const s = chunkStore(req.state);
  return [...s.bundles.values()].filter(
    (b) => b.state === "ok" && b.org === req.params.org && b.projects.includes(req.params.project ?? ""),
  );
}

function debugIdsOf(b: FakeBundle): string[] {
  return Object.values(b.manifest?.files ?? {}).map((f) => f.headers["debug-id"] ?? "");
}

function listBundles(req: FakeRequest): Response {
  if (!projectOr404(req)) return notFound();
  const q = req.query.get("query") ?? "";
  const rows = bundlesOf(req)
    .filter((b) => q === "" || [b.release, b.dist, b.bundleId, ...debugIdsOf(b)].includes(q))
    .map((b) => ({
      bundleId: b.bundleId,
      associations: b.release ? [{ release: b.release, dist: b.dist ?? null }] : [],
      fileCount: Object.keys(b.manifest?.files ?? {}).length,
      date: "2026-01-15T12:00:00Z",
      dateModified: "2026-01-15T12:00:00Z",
    }));
  return json(rows.slice(0, 10));
}

function bundleFiles(req: FakeRequest): Response {
  if (!projectOr404(req)) return notFound();
  const b = bundlesOf(req).find((x) => x.bundleId === req.params.bundleId);
  if (!b)
    return json(
      {
        error: `The artifact bundle with ${req.params.bundleId} is not bound to this project or doesn't exist`,
      },
      400,
    );
  const q = req.query.get("query") ?? "";
  const files = Object.entries(b.manifest?.files ?? {})
    .filter(([, f]) => q === "" || f.url.includes(q) || f.headers["debug-id"] === q)
    .map(([path, f]) => ({
      id: Buffer.from(path).toString("base64"),
      fileType: f.type === "source_map" ? 3 : 2,
      filePath: f.url,
      fileSize: 0,
      debugId: f.headers["debug-id"] ?? null,
      sourcemap: f.headers.sourcemap ?? null,
    }));
  return json({
    bundleId: b.bundleId,
    date: "2026-01-15T12:00:00Z",
    dateModified: "2026-01-15T12:00:00Z",
    fileCount: files.length,
    files,
  });
}

function releaseFiles(req: FakeRequest): Response {
  if (!projectOr404(req)) return notFound();
  const files = chunkStore(req.state).releaseFiles.get(`${req.params.project}@${req.params.version}`);
  return files ? json(files) : notFound();
}

function debugAnswer(req: FakeRequest): Response {
  const s = chunkStore(req.state);
  if (s.noDebugEndpoint || !projectOr404(req)) return notFound();
  const a = s.debugAnswers.get(req.params.eventId ?? "");
  return a ? json(a) : detail(404, "Event not found");
}

const triageProjectEvent = triageRoutes.find(
  (r) => r.pattern === "/api/0/projects/:org/:project/events/:eventId/",
);

function projectEvent(req: FakeRequest): Response | Promise<Response> {
  const e = chunkStore(req.state).events.get(`${req.params.project}/${req.params.eventId}`);
  if (e && projectOr404(req)) return json(e);
  return triageProjectEvent ? triageProjectEvent.handler(req) : notFound();
}

const release = ["project:releases", "project:write", "org:ci", "event:write"];

/** Routes of this module (listed before the triage routes: events seeded here come first). */
export const chunkRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/chunk-upload/",
    hosts: "region",
    scopes: release,
    handler: options,
  },
  {
    method: "POST",
    pattern: "/api/0/organizations/:org/artifactbundle/assemble/",
    hosts: "region",
    scopes: release,
    handler: assemble,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/files/artifact-bundles/",
    hosts: "region",
    scopes: ["project:read"],
    handler: listBundles,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/artifact-bundles/:bundleId/files/",
    hosts: "region",
    scopes: ["project:read"],
    handler: bundleFiles,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/releases/:version/files/",
    hosts: "region",
    scopes: ["project:read"],
    handler: releaseFiles,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/events/:eventId/source-map-debug-blue-thunder-edition/",
    hosts: "region",
    scopes: ["event:read"],
    handler: debugAnswer,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/events/:eventId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: projectEvent,
  },
];
