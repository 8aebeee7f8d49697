import { readFileSync } from "node:fs";
import type { TrackerContext } from "../../context.ts";
import { ConfigError } from "../errors.ts";

/** True when a host matches a NO_PROXY list (`*`, exact hosts, `.suffix` or `suffix` domains, optional ports). */
export function matchesNoProxy(hostname: string, port: string, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    // `[::1]:8080` and `host:port` carry a port; a bare IPv6 address (`::1`) has colons but none.
    const [name, entryPort] = entry.startsWith("[")
      ? [entry.slice(1, entry.indexOf("]")), entry.split("]:")[1]]
      : (entry.match(/:/g)?.length ?? 0) > 1
        ? [entry, undefined]
        : entry.split(":");
    if (entryPort && entryPort !== port) continue;
    const domain = (name ?? "").replace(/^\*?\./, "");
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy URL for a request URL from HTTPS_PROXY/HTTP_PROXY/NO_PROXY (either case), if any. */
export function proxyFor(env: Record<string, string | undefined>, url: string): string | undefined {
  const u = new URL(url);
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const proxy = u.protocol === "https:" ? (pick("HTTPS_PROXY") ?? pick("HTTP_PROXY")) : pick("HTTP_PROXY");
  if (!proxy?.trim()) return undefined;
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  if (matchesNoProxy(u.hostname, port, pick("NO_PROXY"))) return undefined;
  return proxy.trim();
}

let caCache: { key: string; ca: string[] } | undefined;

function extraCa(env: Record<string, string | undefined>): string[] | undefined {
  const files = [env.NODE_EXTRA_CA_CERTS, env.SSL_CERT_FILE].filter((f): f is string => !!f?.trim());
  if (files.length === 0) return undefined;
  const key = files.join("\0");
  if (caCache?.key === key) return caCache.ca;
  const ca: string[] = [];
  for (const f of files) {
    try {
      ca.push(readFileSync(f, "utf8"));
    } catch (err) {
      throw new ConfigError(
        `Cannot read the CA bundle ${f}: ${(err as Error).message}`,
        "Point NODE_EXTRA_CA_CERTS or SSL_CERT_FILE at a readable PEM file, or unset it.",
      );
    }
  }
  const { rootCertificates } = require("node:tls") as typeof import("node:tls");
  caCache = { key, ca: [...rootCertificates, ...ca] };
  return caCache.ca;
}

const PROXY_VARS = ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"];

/**
 * Bun fetch options carrying the proxy and extra CA certificates for one request. Bun also applies
 * proxy variables from the process environment on its own, with its own NO_PROXY rules; `proxy:
 * false` switches that off so the decision made here is the one that holds.
 */
export function fetchOptionsFor(
  ctx: TrackerContext,
  url: string,
): { proxy?: string | false; tls?: { ca: string[] } } {
  const out: { proxy?: string | false; tls?: { ca: string[] } } = {};
  const proxy = proxyFor(ctx.env, url);
  if (proxy) out.proxy = proxy;
  else if (PROXY_VARS.some((name) => ctx.env[name]?.trim() || process.env[name]?.trim())) out.proxy = false;
  if (url.startsWith("https:")) {
    const ca = extraCa(ctx.env);
    if (ca) out.tls = { ca };
  }
  return out;
}
