/**
 * Sends by DSN (API.md §18.4): an envelope POSTed to `{dsn-host}/api/{projectId}/envelope/`,
 * authenticated by the DSN's public key in `X-Sentry-Auth`, never with the API token. Only https
 * hosts, or plain http to a loopback host (a local relay or test server), are sent to.
 */
import type { TrackerContext } from "../../context.ts";
import type { Dsn } from "../dsn/parse.ts";
import { ApiError, ConfigError, NetworkError } from "../errors.ts";
import { assertDsnTransport } from "../plain-http.ts";
import { VERSION } from "../version.ts";
import { isLoopbackHost } from "../loopback.ts";
import { customHeadersFor } from "../http/custom-headers.ts";

/** One envelope item: its type and its JSON payload. */
export interface EnvelopeItem {
  type: string;
  payload: unknown;
}

/** A new 32-hex id (event ids, check-in ids). */
export function newId(): string {
  return crypto.randomUUID().replace(/-/g, "");
}

/**
 * The envelope text: the header line, then per item a header line with its byte `length` and the
 * payload line. JSON.stringify never emits a raw newline, so each payload is one line.
 */
export function buildEnvelope(header: Record<string, unknown>, items: readonly EnvelopeItem[]): string {
  const lines = [JSON.stringify(header)];
  for (const item of items) {
    const payload = JSON.stringify(item.payload);
    lines.push(JSON.stringify({ type: item.type, length: Buffer.byteLength(payload) }), payload);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The envelope endpoint of a DSN. Plain http to a host that is not loopback: with the run's
 * context, as plain-http.ts decides (the user's own DSN or TRACKER_ALLOW_HTTP=1, with a warning);
 * without one, a ConfigError.
 */
export function envelopeUrl(dsn: Dsn, ctx?: TrackerContext): string {
  const url = new URL(`${dsn.scheme}://${dsn.host}/`);
  if (ctx && dsn.scheme !== "https") assertDsnTransport(ctx, dsn);
  else if (dsn.scheme !== "https" && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `Refusing to send to ${dsn.host} over plain http.`,
      "Use an https DSN (plain http is only sent to localhost or 127.0.0.1).",
    );
  }
  const prefix = dsn.pathPrefix ? `${dsn.pathPrefix}/` : "";
  return `${url.origin}/${prefix}api/${dsn.projectId}/envelope/`;
}

/** The `X-Sentry-Auth` header value for a DSN. */
export function sentryAuthHeader(dsn: Dsn): string {
  return `Sentry sentry_key=${dsn.publicKey}, sentry_version=7, sentry_client=tracker/${VERSION}`;
}

/** Options of sendEnvelope. */
export interface SendOptions {
  /** Gives up (NetworkError) after this many ms, the response body included. */
  timeoutMs: number;
  /** Cancels the send early (e.g. the time budget of `monitor run` ran out). */
  signal?: AbortSignal;
}

/**
 * POSTs an envelope once, no retries. Resolves with the id the server acknowledged (if any);
 * rejects with NetworkError (no answer, or timed out) or ApiError (a non-2xx status).
 */
export async function sendEnvelope(
  ctx: TrackerContext,
  dsn: Dsn,
  body: string | Uint8Array,
  opts: SendOptions,
): Promise<{ id: string | undefined }> {
  const url = envelopeUrl(dsn, ctx);
  // A DSN on the service's host behind an access proxy needs its headers too; never another host's.
  const proxyHeaders = customHeadersFor(ctx.env, ctx.settings.baseUrl, url);
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await ctx.fetch(url, {
      method: "POST",
      headers: {
        ...proxyHeaders,
        "Content-Type": "application/x-sentry-envelope",
        "X-Sentry-Auth": sentryAuthHeader(dsn),
      },
      body,
      signal,
      redirect: "error",
    });
    text = await res.text();
  } catch (err) {
    const why = timeout.aborted
      ? `no answer within ${(opts.timeoutMs / 1000).toFixed(1)} s`
      : signal.aborted
        ? "cancelled"
        : err instanceof Error
          ? err.message
          : String(err);
    throw new NetworkError(`Could not reach ${dsn.host}: ${why}.`);
  }
  ctx.log.debug(`POST ${url} → ${res.status}`);
  if (!res.ok) {
    throw new ApiError({
      status: res.status,
      endpoint: url,
      message: `${dsn.host} refused the envelope with status ${res.status}`,
      detail: text.slice(0, 500) || undefined,
    });
  }
  try {
    const parsed = JSON.parse(text) as { id?: unknown };
    return { id: typeof parsed.id === "string" ? parsed.id : undefined };
  } catch {
    return { id: undefined };
  }
}
