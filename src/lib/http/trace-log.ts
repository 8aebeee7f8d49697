/** The `--log-level trace` lines of HTTP exchanges: headers and proxy URLs with secrets masked. */

/** Headers as trace-log lines, with credentials masked. */
export function formatHeaders(headers: Headers | Record<string, string>): string {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return entries
    .map(([k, val]) => {
      const name = k.toLowerCase();
      const masked = /^(authorization|cookie|set-cookie|proxy-authorization)$/.test(name)
        ? "[REDACTED]"
        : val;
      return `    ${name}: ${masked}`;
    })
    .join("\n");
}

/** A proxy URL for the trace log, without credentials. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    const creds = u.username || u.password ? "[REDACTED]@" : "";
    return `${u.protocol}//${creds}${u.host}${u.pathname}`;
  } catch {
    return "[invalid proxy URL]";
  }
}
