/**
 * DSN parsing (API.md §4.1): `{scheme}://{publicKey}[:{secret}]@{host}[:{port}][/{prefix}]/{projectId}`.
 * Hosted DSNs carry the numeric org id in the host (`o123.ingest[.region].sentry.io`).
 */

/** A parsed DSN. `orgId` is set only for hosted ingest hosts. */
export interface Dsn {
  /** The DSN as written, without a secret key (never log a secret). */
  raw: string;
  scheme: "http" | "https";
  publicKey: string;
  /** Host name with the port, if any (e.g. `sentry.internal:9000`). */
  host: string;
  /** Path prefix before the project id, without slashes ("" when none). */
  pathPrefix: string;
  projectId: string;
  orgId: string | undefined;
  /** Region label of a hosted ingest host (`us`, `de`), when present. */
  region: string | undefined;
}

const HOSTED_INGEST_RE = /^o(\d+)\.ingest(?:\.([a-z]+))?\.sentry\.io$/;
const KEY_RE = /^[0-9a-f]{32}$/i;
const HOST_RE =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[[0-9a-fA-F:.]+\]$/;

/**
 * Matches DSN-shaped text inside a file: http(s), a 32-hex public key (optional legacy secret),
 * a host with a dot, a port, or `localhost`, an optional path prefix, and a numeric project id.
 */
export const DSN_IN_TEXT_RE =
  /https?:\/\/[0-9a-fA-F]{32}(?::[0-9a-fA-F]{32})?@(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|localhost|\[[0-9a-fA-F:.]+\])(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]+)*\/\d+(?![\w/])/g;

/** Parses one DSN; undefined when the text is not a DSN (secret keys are accepted and dropped). */
export function parseDsn(text: string): Dsn | undefined {
  const t = text.trim();
  const m = /^(https?):\/\/([^@/\s]+)@([^/\s]+)(\/[^\s?#]*)$/.exec(t);
  if (!m) return undefined;
  const [, scheme, userinfo, hostport, path] = m as unknown as [
    string,
    "http" | "https",
    string,
    string,
    string,
  ];
  const [publicKey, secret, extra] = userinfo.split(":");
  if (!publicKey || !KEY_RE.test(publicKey) || extra !== undefined) return undefined;
  if (secret !== undefined && !KEY_RE.test(secret)) return undefined;
  const hp = /^(.+?)(?::(\d{1,5}))?$/.exec(hostport);
  const hostname = hp?.[1];
  const port = hp?.[2];
  if (!hostname || !HOST_RE.test(hostname)) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  const segments = path.split("/").filter((s) => s !== "");
  const projectId = segments.pop();
  if (!projectId || !/^\d+$/.test(projectId) || path.endsWith("//")) return undefined;
  if (segments.some((s) => !/^[A-Za-z0-9._~-]+$/.test(s))) return undefined;
  const host = port ? `${hostname.toLowerCase()}:${port}` : hostname.toLowerCase();
  const hosted = port ? undefined : HOSTED_INGEST_RE.exec(hostname.toLowerCase());
  const pathPrefix = segments.join("/");
  const key = publicKey.toLowerCase();
  return {
    raw: `${scheme}://${key}@${host}/${pathPrefix ? `${pathPrefix}/` : ""}${projectId}`,
    scheme,
    publicKey: key,
    host,
    pathPrefix,
    projectId,
    orgId: hosted?.[1],
    region: hosted?.[2],
  };
}

/**
 * Every distinct DSN in a piece of text, in order of appearance, with where it starts; `keep`
 * skips occurrences (e.g. in comments) before duplicates are dropped.
 */
export function findDsnsInText(text: string, keep?: (index: number) => boolean): (Dsn & { index: number })[] {
  const out: (Dsn & { index: number })[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(DSN_IN_TEXT_RE)) {
    if (keep && !keep(m.index)) continue;
    const dsn = parseDsn(m[0]);
    if (dsn && !seen.has(dsn.raw)) {
      seen.add(dsn.raw);
      out.push({ ...dsn, index: m.index });
    }
  }
  return out;
}
