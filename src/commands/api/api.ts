import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../../lib/errors.ts";
import { apiRequestDeferred, type Host, type QueryValue } from "../../lib/http/client.ts";
import { errorForStatus } from "../../lib/http/errors.ts";
import { MAX_PAGES } from "../../lib/http/paginate.ts";
import { jsonText, writeLines } from "../../lib/output.ts";
import { resolveOrg, resolveOrgProject } from "../../lib/resolve/target.ts";
import type { ApiFlags } from "./index.ts";

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

/** The request path below /api/0/ with {org}/{project} filled in, and the host it goes to. */
async function target(
  ctx: TrackerContext,
  raw: string,
): Promise<{ path: string; query: Record<string, string[]>; host: Host }> {
  let text = raw.trim();
  if (/^[a-z]+:\/\//i.test(text)) {
    throw new ValidationError(
      "tracker api takes a path below /api/0/, not a URL: the token is only sent to the service.",
      "path",
    );
  }
  text = text.replace(/^\/?(api\/0\/)?/, "");
  if (text.includes("{project}")) {
    const t = await resolveOrgProject(ctx, undefined, { command: "tracker api" });
    text = text
      .replaceAll("{org}", encodeURIComponent(t.org))
      .replaceAll("{project}", encodeURIComponent(t.project));
  } else if (text.includes("{org}")) {
    const { org } = await resolveOrg(ctx, undefined, { command: "tracker api" });
    text = text.replaceAll("{org}", encodeURIComponent(org));
  }
  const [pathPart, queryPart] = text.split("?", 2) as [string, string | undefined];
  if (pathPart.split("/").some((seg) => seg === ".."))
    throw new ValidationError("The path may not contain '..'.", "path");
  const path = `/api/0/${pathPart}${pathPart === "" || pathPart.endsWith("/") ? "" : "/"}`;
  const query: Record<string, string[]> = {};
  for (const [k, val] of new URLSearchParams(queryPart ?? "")) query[k] = [...(query[k] ?? []), val];
  const org = /^(?:organizations|projects)\/([^/]+)\//.exec(
    pathPart.endsWith("/") ? pathPart : `${pathPart}/`,
  )?.[1];
  return { path, query, host: org ? { org: decodeURIComponent(org) } : "control" };
}

function headersOf(raw: readonly string[] | undefined, ctx: TrackerContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw ?? []) {
    const at = h.indexOf(":");
    if (at <= 0) throw new ValidationError(`-H must be 'Name: value', got '${h}'.`, "header");
    const name = h.slice(0, at).trim();
    if (/^authorization$/i.test(name)) {
      ctx.log.warn("-H Authorization is ignored: tracker sends your login's token.");
      continue;
    }
    out[name] = h.slice(at + 1).trim();
  }
  return out;
}

function printBody(ctx: TrackerContext, text: string): void {
  if (text === "") return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: printed as is (through the terminal sanitiser like every output).
    writeLines(ctx, text);
    return;
  }
  // Pretty on a terminal. Raw DEL/C1 characters inside JSON strings are escaped (jsonText) so the
  // sanitiser never turns valid JSON into invalid JSON; otherwise the server's bytes are kept.
  if (ctx.isStdoutTTY || /[\u007f-\u009f\u2028\u2029]/.test(text))
    writeLines(ctx, jsonText(parsed, ctx.isStdoutTTY));
  else writeLines(ctx, text);
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
  const headers = headersOf(flags.header, this);
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
    });
    const ok = res.status >= 200 && res.status < 300;
    if (flags.include && (page === 1 || !ok)) {
      const lines = [`HTTP ${res.status}`];
      for (const [name, value] of res.headers) lines.push(`${name}: ${value}`);
      writeLines(this, [...lines, ""]);
    }
    if (!ok) {
      if (!flags.silent) printBody(this, res.text);
      throw errorForStatus(res.status, res.text, `${method} ${t.path}`);
    }
    if (!flags.paginate) {
      if (!flags.silent) printBody(this, res.text);
      return;
    }
    const data = res.parse();
    if (!Array.isArray(data))
      throw new ValidationError("--paginate needs an endpoint that answers with a JSON array.", "paginate");
    items.push(...data);
    if (!res.nextCursor || page >= MAX_PAGES) break;
    cursor = res.nextCursor;
  }
  if (!flags.silent) printBody(this, JSON.stringify(items));
}
