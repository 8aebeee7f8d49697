import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../../lib/errors.ts";
import { apiRequestDeferred, type Host, type QueryValue } from "../../lib/http/client.ts";
import { errorForStatus } from "../../lib/http/errors.ts";
import { MAX_PAGES } from "../../lib/http/paginate.ts";
import { writeLines } from "../../lib/output.ts";
import { resolveOrg, resolveOrgProject } from "../../lib/resolve/target.ts";
import { requestHeaders } from "./headers.ts";
import type { ApiFlags } from "./index.ts";
import { assertUnderApi, checkPathPart, normaliseSlashes } from "./path.ts";
import { detailSource, printBody, printRaw, printValue } from "./print.ts";

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const;
// 4xx answers are data here (printed, then mapped to an exit code); 401/408/429 and 5xx keep the
// client's refresh and retry handling.
const DATA_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i).filter(
  (s) => ![401, 408, 429].includes(s),
);

/** A `-F` value: numbers, booleans and null typed, `@file` read from a file, else the string. */
export function typedValue(ctx: TrackerContext, raw: string): unknown {
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (raw === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  if (raw.startsWith("@")) {
    try {
      return readFileSync(resolve(ctx.cwd, raw.slice(1)), "utf8");
    } catch (err) {
      throw new ValidationError(`Cannot read ${raw.slice(1)}: ${(err as Error).message}`, "field");
    }
  }
  return raw;
}

function splitField(raw: string, flag: string): [string, string] {
  const at = raw.indexOf("=");
  if (at <= 0) throw new ValidationError(`${flag} must be key=value, got '${raw}'.`, flag);
  return [raw.slice(0, at), raw.slice(at + 1)];
}

/** Where a request goes: organization and project paths to the organization's region. */
function hostOf(pathPart: string): Host {
  const org = /^(?:organizations|projects)\/([^/]+)\//.exec(
    pathPart.endsWith("/") ? pathPart : `${pathPart}/`,
  )?.[1];
  return org ? { org: decodeURIComponent(org) } : "control";
}

/** `text` with {org} and {project} filled in from the target context. */
async function fillPlaceholders(ctx: TrackerContext, text: string): Promise<string> {
  if (text.includes("{project}")) {
    const t = await resolveOrgProject(ctx, undefined, { command: "tracker api" });
    return text
      .replaceAll("{org}", encodeURIComponent(t.org))
      .replaceAll("{project}", encodeURIComponent(t.project));
  }
  if (text.includes("{org}")) {
    const { org } = await resolveOrg(ctx, undefined, { command: "tracker api" });
    return text.replaceAll("{org}", encodeURIComponent(org));
  }
  return text;
}

/**
 * The request path below /api/0/ with {org}/{project} filled in, and the host it goes to. Paths
 * that could leave /api/0/ (dot segments, escaped or not) are refused before anything is sent.
 */
async function target(
  ctx: TrackerContext,
  raw: string,
): Promise<{ path: string; query: Record<string, string[]>; host: Host }> {
  let text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new ValidationError(
      "tracker api takes a path below /api/0/, not a URL: the token is only sent to the service.",
      "path",
    );
  }
  text = normaliseSlashes(text).replace(/^\/?(api\/0\/)?/, "");
  // Checked before placeholders are filled (nothing is resolved for a refused path) and after.
  checkPathPart(text.split("?", 1)[0] as string);
  text = await fillPlaceholders(ctx, text);
  const q = text.indexOf("?");
  const pathPart = q < 0 ? text : text.slice(0, q);
  const queryPart = q < 0 ? "" : text.slice(q + 1);
  checkPathPart(pathPart);
  const path = `/api/0/${pathPart}${pathPart === "" || pathPart.endsWith("/") ? "" : "/"}`;
  assertUnderApi(ctx.settings.baseUrl, path);
  const query: Record<string, string[]> = {};
  for (const [k, val] of new URLSearchParams(queryPart)) query[k] = [...(query[k] ?? []), val];
  return { path, query, host: hostOf(pathPart) };
}

/** `tracker api <path>`. */
export default async function api(this: TrackerContext, flags: ApiFlags, rawPath: string): Promise<void> {
  const fields: Record<string, unknown> = {};
  for (const f of flags.field ?? []) {
    const [k, val] = splitField(f, "-F");
    fields[k] = typedValue(this, val);
  }
  for (const f of flags.rawField ?? []) {
    const [k, val] = splitField(f, "-f");
    fields[k] = val;
  }
  const hasFields = Object.keys(fields).length > 0;
  const method = (flags.method?.toUpperCase() ??
    (hasFields || flags.input !== undefined ? "POST" : "GET")) as (typeof METHODS)[number];
  if (!METHODS.includes(method))
    throw new ValidationError(`-X must be one of ${METHODS.join(", ")}, got '${flags.method}'.`, "method");
  if (flags.input !== undefined && hasFields)
    throw new ValidationError("Use either --input or fields (-F/-f), not both.", "input");
  if (flags.paginate && method !== "GET")
    throw new ValidationError("--paginate works with GET requests only.", "paginate");
  const headers = requestHeaders(flags.header);
  const t = await target(this, rawPath);
  const query: Record<string, QueryValue> = { ...t.query };
  let json: unknown;
  let rawBody: string | undefined;
  if (method === "GET" && hasFields) {
    for (const [k, val] of Object.entries(fields)) query[k] = val === null ? "" : String(val);
  } else if (hasFields) json = fields;
  if (flags.input !== undefined) {
    try {
      rawBody =
        flags.input === "-" ? await this.readStdin() : readFileSync(resolve(this.cwd, flags.input), "utf8");
    } catch (err) {
      throw new ValidationError(`Cannot read --input ${flags.input}: ${(err as Error).message}`, "input");
    }
  }
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const res = await apiRequestDeferred(this, {
      method: method as "GET",
      path: t.path,
      host: t.host,
      query: cursor ? { ...query, cursor } : query,
      json,
      rawBody,
      headers,
      retry: method === "GET" ? true : "unsent",
      acceptStatuses: DATA_STATUSES,
      schema: v.unknown(),
      // The escape hatch prints any document as sent, without recursion (print.ts), however deep.
      maxDepth: Number.POSITIVE_INFINITY,
    });
    const ok = res.status >= 200 && res.status < 300;
    if (flags.include && (page === 1 || !ok)) {
      const lines = [`HTTP ${res.status}`];
      for (const [name, value] of res.headers) lines.push(`${name}: ${value}`);
      writeLines(this, [...lines, ""]);
    }
    if (!ok) {
      if (!flags.silent) printRaw(this, res.text);
      throw errorForStatus(res.status, detailSource(res.text), `${method} ${t.path}`);
    }
    if (!flags.paginate) {
      if (!flags.silent) printBody(this, res.text, `${method} ${t.path}`);
      return;
    }
    const data = res.parse();
    if (!Array.isArray(data))
      throw new ValidationError("--paginate needs an endpoint that answers with a JSON array.", "paginate");
    // One push per item: spreading a page of a million items overflows the call stack.
    for (const item of data) items.push(item);
    if (!res.nextCursor || page >= MAX_PAGES) break;
    cursor = res.nextCursor;
  }
  if (!flags.silent) printValue(this, items);
}
