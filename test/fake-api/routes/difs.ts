/**
 * Debug files (API.md §21): difs/assemble as the server answers it (cached state, a known file
 * is `ok` at once, missing chunks, `created` then `ok`/`error` on later polls, a fat Mach-O
 * refused), the project's debug files with `debug_id`/`query` filters, ProGuard release
 * associations, code-mappings bulk. Chunks arrive through the chunk listener of chunks.ts (one
 * chunk store per server); Dart symbol maps and ProGuard mappings are assembled like any file.
 */
import { json } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { chunkStore, sha1 } from "./chunks.ts";
import { orgProjectOr404 } from "./orgs.ts";

/** A debug file the fake knows (assembled, or seeded by a test). */
export interface FakeDif {
  id: string;
  project: string;
  checksum: string;
  name: string;
  debugId: string;
  codeId: string | null;
  cpuName: string;
  symbolType: string;
  features: string[];
  size: number;
  state: "created" | "assembling" | "ok" | "error";
  detail?: string;
  polls: number;
}

/** The module's state and knobs. */
export interface DifStore {
  difs: Map<string, FakeDif>;
  /** Assemble polls answered `assembling` before the final state. */
  pollsBeforeDone: number;
  /** Files (by name) whose processing ends in `error` with this detail. */
  failNames: Map<string, string>;
  /** Assemble request bodies, parsed. */
  assembles: Record<string, { name: string; debug_id?: string; chunks: string[] }>[];
  proguardReleases: { project: string; release_name: string; proguard_uuid: string }[];
  codeMappings: Map<
    string,
    { stackRoot: string; sourceRoot: string; repository: string; defaultBranch: string }
  >;
  /** Repositories the org has (code mappings need one). */
  repositories: string[];
}

const KEY = "difs";

/** The module's state (created on first use). */
export function difStore(state: FakeState): DifStore {
  let s = state.store.get(KEY) as DifStore | undefined;
  if (!s) {
    s = {
      difs: new Map(),
      pollsBeforeDone: 0,
      failNames: new Map(),
      assembles: [],
      proguardReleases: [],
      codeMappings: new Map(),
      repositories: ["acme/android", "acme/native"],
    };
    state.store.set(KEY, s);
  }
  return s;
}

/** What the server's detection makes of an assembled file (a small part of symbolic). */
function detect(bytes: Uint8Array, name: string, clientId?: string): Partial<FakeDif> & { error?: string } {
  const proguard = /\/proguard\/(?:mapping-)?(.*?)\.txt$/.exec(name);
  if (proguard)
    return {
      debugId: proguard[1] ?? "",
      symbolType: "proguard",
      cpuName: "any",
      features: ["mapping"],
      codeId: null,
    };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 8 && dv.getUint32(0, false) === 0xcafebabe) {
    const n = dv.getUint32(4, false);
    if (n > 1) return { error: `Object contains ${n} architectures (1 expected)` };
  }
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  const m = /^MODULE \S+ (\S+) ([0-9A-Fa-f]{32})([0-9A-Fa-f]*) /.exec(head);
  if (m) {
    const h = (m[2] as string).toLowerCase();
    const age = Number.parseInt(m[3] || "0", 16);
    const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    // Breakpad writes record kinds in a fixed order: the head and the tail decide the features.
    const text = new TextDecoder().decode(
      bytes.length > 131072 ? Buffer.concat([bytes.subarray(0, 65536), bytes.subarray(-65536)]) : bytes,
    );
    const features = [
      ...(/^(FUNC|PUBLIC) /m.test(text) ? ["symtab"] : []),
      ...(/^FILE /m.test(text) ? ["debug"] : []),
      ...(/^STACK /m.test(text) ? ["unwind"] : []),
    ];
    return {
      debugId: age ? `${uuid}-${age.toString(16)}` : uuid,
      symbolType: "breakpad",
      cpuName: m[1],
      features,
      codeId: null,
    };
  }
  if (head.trimStart().startsWith("[")) {
    if (!clientId) return { error: "Missing debug_id for dartsymbolmap" };
    return {
      debugId: clientId,
      symbolType: "dartsymbolmap",
      cpuName: "any",
      features: ["mapping"],
      codeId: null,
    };
  }
  return { error: "Unsupported debug information file: unknown object format" };
}

/** The serialized debug file (`DebugFileSerializer`). */
export function serializeDif(d: FakeDif) {
  return {
    id: d.id,
    uuid: d.debugId.slice(0, 36),
    debugId: d.debugId,
    codeId: d.codeId,
    cpuName: d.cpuName,
    objectName: d.symbolType === "proguard" ? "proguard-mapping" : d.name.replace(/\.sym$/, ""),
    symbolType: d.symbolType,
    headers: {},
    size: d.size,
    sha1: d.checksum,
    dateCreated: "2026-01-15T12:00:00Z",
    data: { type: "dbg", features: d.features },
  };
}

function assemble(req: FakeRequest): Response {
  const found = orgProjectOr404(req);
  if (found instanceof Response) return found;
  let body: Record<string, { name?: unknown; debug_id?: unknown; chunks?: unknown }>;
  try {
    body = JSON.parse(req.body || "");
  } catch {
    return json({ error: "Invalid json body" }, 400);
  }
  const s = difStore(req.state);
  const blobs = chunkStore(req.state).chunks;
  s.assembles.push(body as DifStore["assembles"][number]);
  const out: Record<string, unknown> = {};
  for (const [checksum, f] of Object.entries(body)) {
    if (!/^[0-9a-f]{40}$/.test(checksum) || typeof f.name !== "string" || !Array.isArray(f.chunks))
      return json({ error: `'${checksum}' does not match any of the regexes: '^[0-9a-f]{40}$'` }, 400);
    const key = `${found.project.slug}:${checksum}`;
    const known = s.difs.get(key);
    if (known) {
      if (known.state === "created" || known.state === "assembling") {
        known.polls++;
        if (known.polls > s.pollsBeforeDone) known.state = known.detail ? "error" : "ok";
        else known.state = "assembling";
      }
      out[checksum] =
        known.state === "ok"
          ? { state: "ok", detail: null, missingChunks: [], dif: serializeDif(known) }
          : {
              state: known.state,
              detail: known.state === "error" ? (known.detail ?? null) : null,
              missingChunks: [],
            };
      continue;
    }
    const chunks = f.chunks as string[];
    if (chunks.length === 0) {
      out[checksum] = { state: "not_found", missingChunks: [] };
      continue;
    }
    const missing = chunks.filter((c) => !blobs.has(c));
    if (missing.length > 0) {
      out[checksum] = { state: "not_found", missingChunks: missing };
      continue;
    }
    const bytes = new Uint8Array(Buffer.concat(chunks.map((c) => blobs.get(c) as Uint8Array)));
    const clientId = typeof f.debug_id === "string" ? f.debug_id : undefined;
    const d =
      sha1(bytes) !== checksum ? { error: "Reported checksum mismatch" } : detect(bytes, f.name, clientId);
    const dif: FakeDif = {
      id: String(s.difs.size + 1),
      project: found.project.slug,
      checksum,
      name: f.name,
      debugId: d.debugId ?? "",
      codeId: d.codeId ?? null,
      cpuName: d.cpuName ?? "unknown",
      symbolType: d.symbolType ?? "unknown",
      features: d.features ?? [],
      size: bytes.length,
      state: "created",
      polls: 0,
      ...(d.error || s.failNames.has(f.name) ? { detail: d.error ?? s.failNames.get(f.name) } : {}),
    };
    s.difs.set(key, dif);
    out[checksum] = { state: "created", missingChunks: [] };
  }
  return json(out);
}

function listDsyms(req: FakeRequest): Response {
  const found = orgProjectOr404(req);
  if (found instanceof Response) return found;
  const id = req.query.get("debug_id");
  const q = (req.query.get("query") ?? "").toLowerCase();
  const rows = [...difStore(req.state).difs.values()]
    .filter((d) => d.project === found.project.slug && d.state === "ok")
    .filter((d) => !id || d.debugId === id.toLowerCase())
    .filter(
      (d) => !q || [d.name, d.debugId, d.codeId ?? "", d.cpuName].some((x) => x.toLowerCase().includes(q)),
    )
    .reverse()
    .map(serializeDif);
  return json(rows.slice(0, 20));
}

function proguardReleases(req: FakeRequest): Response {
  const found = orgProjectOr404(req);
  if (found instanceof Response) return found;
  const s = difStore(req.state);
  if (req.method === "GET") {
    const uuid = req.query.get("proguard_uuid");
    return json({
      releases: s.proguardReleases
        .filter((r) => r.project === found.project.slug && r.proguard_uuid === uuid)
        .map((r) => r.release_name),
    });
  }
  const b = JSON.parse(req.body || "{}") as { release_name?: string; proguard_uuid?: string };
  const lacking = ["release_name", "proguard_uuid"].filter((k) => !(b as Record<string, unknown>)[k]);
  if (lacking.length > 0) return json({ error: `Missing required fields: ${lacking.join(", ")}` }, 400);
  const known = [...s.difs.values()].some(
    (d) => d.project === found.project.slug && d.symbolType === "proguard" && d.debugId === b.proguard_uuid,
  );
  if (!known) return json({ error: "No matching proguard mapping file with this uuid found" }, 400);
  if (s.proguardReleases.some((r) => r.project === found.project.slug && r.release_name === b.release_name))
    return json({ error: "Proguard artifact release with this name in this project already exists." }, 409);
  s.proguardReleases.push({
    project: found.project.slug,
    release_name: b.release_name as string,
    proguard_uuid: b.proguard_uuid as string,
  });
  return json({}, 201);
}

function codeMappingsBulk(req: FakeRequest): Response {
  const s = difStore(req.state);
  const b = JSON.parse(req.body || "{}") as {
    project?: string;
    repository?: string;
    defaultBranch?: string;
    mappings?: { stackRoot?: string; sourceRoot?: string }[];
  };
  const org = req.params.org ?? "";
  const project = req.state.projects.find((p) => p.org === org && p.slug === b.project);
  if (!project) return json({ detail: `Project not found: ${b.project}` }, 404);
  if (!b.repository || !s.repositories.includes(b.repository))
    return json({ detail: `Repository not found: ${b.repository}` }, 404);
  const mappings = b.mappings ?? [];
  if (mappings.length === 0) return json({ mappings: ["At least one mapping is required."] }, 400);
  if (mappings.length > 300)
    return json({ mappings: ["A maximum of 300 mappings can be submitted at once."] }, 400);
  if (!b.defaultBranch || !/^(?!\/)[\w./-]+(?<!\/)$/.test(b.defaultBranch))
    return json({ defaultBranch: ["defaultBranch is required for this integration type."] }, 400);
  const rows = mappings.map((m) => {
    if (!m.stackRoot || m.sourceRoot === undefined)
      return {
        stackRoot: m.stackRoot ?? "",
        sourceRoot: m.sourceRoot ?? "",
        status: "error",
        detail: "stackRoot and sourceRoot are required.",
      };
    const key = `${project.slug}:${m.stackRoot}`;
    const status = s.codeMappings.has(key) ? "updated" : "created";
    s.codeMappings.set(key, {
      stackRoot: m.stackRoot,
      sourceRoot: m.sourceRoot,
      repository: b.repository as string,
      defaultBranch: b.defaultBranch as string,
    });
    return { stackRoot: m.stackRoot, sourceRoot: m.sourceRoot, status };
  });
  const count = (st: string) => rows.filter((r) => r.status === st).length;
  return json(
    { created: count("created"), updated: count("updated"), errors: count("error"), mappings: rows },
    count("error") > 0 ? 207 : 200,
  );
}

// event:write: the fake's user token stands for a member with release rights (as in chunks.ts).
const release = ["project:releases", "project:write", "org:ci", "event:write"];

/** Routes of this module. */
export const difRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/api/0/projects/:org/:project/files/difs/assemble/",
    hosts: "region",
    scopes: release,
    handler: assemble,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/files/dsyms/",
    hosts: "region",
    scopes: ["project:read", ...release],
    handler: listDsyms,
  },
  {
    method: "POST",
    pattern: "/api/0/projects/:org/:project/files/proguard-artifact-releases/",
    hosts: "region",
    scopes: release,
    handler: proguardReleases,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/files/proguard-artifact-releases/",
    hosts: "region",
    scopes: ["project:read", ...release],
    handler: proguardReleases,
  },
  {
    method: "POST",
    pattern: "/api/0/organizations/:org/code-mappings/bulk/",
    hosts: "region",
    scopes: ["org:ci", "org:write", "org:admin", "event:write"],
    handler: codeMappingsBulk,
  },
];

/** The sandbox's native event: its crashing frames fall in an image the service has no file for. */
export const DEMO_NATIVE_EVENT = "d1f5d1f5d1f5d1f5d1f5d1f5d1f5d1f5";

/** Demo data for `bun run sandbox`: a native event of acme/mobile-app for `debug-files explain`. */
export function seedDifDemo(state: FakeState): void {
  const missing = "aaaaaaaa-0000-4000-8000-000000000001";
  const unwindOnly = "bbbbbbbb-0000-4000-8000-000000000002";
  chunkStore(state).events.set(`mobile-app/${DEMO_NATIVE_EVENT}`, {
    eventID: DEMO_NATIVE_EVENT,
    platform: "native",
    dateReceived: "2026-01-15T13:00:00Z",
    tags: [{ key: "release", value: "mobile@1.0.0" }],
    entries: [
      {
        type: "exception",
        data: {
          values: [
            {
              stacktrace: {
                frames: [
                  {
                    instructionAddr: "0x2010",
                    package: "/app/libgame.so",
                    data: { symbolicator_status: "missing" },
                  },
                  {
                    instructionAddr: "0x1020",
                    package: "/app/libapp.so",
                    data: { symbolicator_status: "missing" },
                  },
                ],
              },
            },
          ],
        },
      },
      {
        type: "debugmeta",
        data: {
          images: [
            {
              type: "elf",
              code_file: "/app/libapp.so",
              debug_id: missing,
              arch: "arm64",
              image_addr: "0x1000",
              image_size: 4096,
            },
            {
              type: "elf",
              code_file: "/app/libgame.so",
              debug_id: unwindOnly,
              arch: "arm64",
              image_addr: "0x2000",
              image_size: 4096,
            },
          ],
        },
      },
    ],
    errors: [
      {
        type: "native_missing_dsym",
        message: "A required debug information file was missing.",
        data: { image_path: "/app/libapp.so", image_uuid: missing },
      },
    ],
  });
  const checksum = "b".repeat(40);
  difStore(state).difs.set(`mobile-app:${checksum}`, {
    id: "1",
    project: "mobile-app",
    checksum,
    name: "libgame.so",
    debugId: unwindOnly,
    codeId: null,
    cpuName: "arm64",
    symbolType: "elf",
    features: ["unwind"],
    size: 4096,
    state: "ok",
    polls: 0,
  });
}
