/**
 * Token shapes masked wherever text is logged: prefixed tokens, bearer values, `token=`-style pairs
 * (values of 8+ characters, so prose like "token: expired" stays readable; bare `code` is not a key
 * because "exit code: 2" is not a secret), and 40+ character alphanumeric runs (OAuth tokens).
 * Trace and event ids (32 hex) are shorter than 40 and stay readable.
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /sntry[a-z]_[A-Za-z0-9+/=_.-]+/g,
  /(Bearer\s+)[^\s",]+/gi,
  /((?:access_token|refresh_token|device_code|client_secret|auth_token|\btoken)["']?\s*[:=]\s*["']?)[^\s"'&,}]{8,}/gi,
  /\b[A-Za-z0-9]{40,}\b/g,
];

/** Masks a secret for display: keeps a short recognisable prefix and the last 4 characters. */
export function maskToken(token: string): string {
  const prefix = /^sntry[a-z]_/.test(token) ? token.slice(0, 7) : "";
  if (token.length <= 12) return `${prefix}****`;
  return `${prefix}****${token.slice(-4)}`;
}

/**
 * Replaces every known secret and every token-shaped substring in a text with `[REDACTED]`.
 * `longRuns: false` keeps bare 40+ character runs (checksums, commit ids) readable: error
 * messages name those, and the tokens they might echo are known secrets or prefixed.
 */
export function redact(text: string, secrets: readonly string[] = [], opts = { longRuns: true }): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join("[REDACTED]");
  }
  for (const re of opts.longRuns ? TOKEN_PATTERNS : TOKEN_PATTERNS.slice(0, -1)) {
    out = out.replace(re, (_m, lead?: string) =>
      typeof lead === "string" ? `${lead}[REDACTED]` : "[REDACTED]",
    );
  }
  return out;
}
