import { TURN3_MUTATIONS } from "./mutations-turn3.ts";

/**
 * The deliberate breaks `script/mutate.ts` applies, one at a time. Each names the exact text it
 * replaces (it must occur once in the file) and the tests that must catch it.
 */

/** One deliberate break. */
export interface Mutation {
  name: string;
  /** Path from the repository root. */
  file: string;
  /** Exact text to replace (must occur exactly once). */
  find: string;
  replace: string;
  /** Test files that must fail with the break in place. */
  tests: string[];
}

/**
 * The critical paths of issue 11: upgrade, checksums, DSN secrets, colour, file modes, redaction,
 * sanitising, the browser opener, token checks, host-bound logins, the retry budget and body caps.
 */
export const MUTATIONS: Mutation[] = [
  {
    name: "upgrade self-test accepts any version",
    file: "src/lib/upgrade/curl.ts",
    find: "if (code !== 0 || out.trim() !== version) {",
    replace: "if (code !== 0) {",
    tests: ["test/lib/upgrade/self-test.test.ts"],
  },
  {
    name: "upgrade self-test accepts a failing binary",
    file: "src/lib/upgrade/curl.ts",
    find: "if (code !== 0 || out.trim() !== version) {",
    replace: "if (out.trim() !== version) {",
    tests: ["test/lib/upgrade/self-test.test.ts"],
  },
  {
    name: "checksum mismatch ignored",
    file: "src/lib/upgrade/download.ts",
    find: "if (actual !== req.sha256) {",
    replace: "if (false) {",
    tests: ["test/dist/upgrade.test.ts", "test/dist/upgrade-lib.test.ts"],
  },
  {
    name: "DSN keeps its secret key",
    file: "src/lib/dsn/parse.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal
    find: "raw: `${scheme}://${key}@${host}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal
    replace: "raw: `${scheme}://${userinfo}@${host}",
    tests: ["test/lib/dsn/parse.test.ts"],
  },
  {
    name: "DSN accepts a malformed secret key",
    file: "src/lib/dsn/parse.ts",
    find: "if (secret !== undefined && !KEY_RE.test(secret)) return undefined;",
    replace: "",
    tests: ["test/lib/dsn/parse.test.ts"],
  },
  {
    name: "colour ignores NO_COLOR",
    file: "src/build-context.ts",
    find: "const color = isStderrTTY && !env.NO_COLOR;",
    replace: "const color = isStderrTTY;",
    tests: ["test/e2e/color.test.ts"],
  },
  {
    name: "colour on when not a terminal",
    file: "src/build-context.ts",
    find: "const color = isStderrTTY && !env.NO_COLOR;",
    replace: "const color = !env.NO_COLOR;",
    tests: ["test/e2e/color.test.ts"],
  },
  {
    name: "rc and skill files keep the umask's mode",
    file: "src/lib/fs/rewrite.ts",
    find: "fchmodSync(fd, keep?.mode ?? opts.mode ?? 0o644);",
    replace: "",
    tests: ["test/lib/trust.test.ts", "test/dist/setup.test.ts"],
  },
  {
    name: "rc files lose their own mode",
    file: "src/lib/fs/rewrite.ts",
    find: "fchmodSync(fd, keep?.mode ?? opts.mode ?? 0o644);",
    replace: "fchmodSync(fd, opts.mode ?? 0o644);",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "known secrets not redacted",
    file: "src/lib/redact.ts",
    find: 'if (s && s.length >= 4) out = out.split(s).join("[REDACTED]");',
    replace: "",
    tests: ["test/lib/redact.test.ts", "test/e2e/logging.test.ts"],
  },
  {
    name: "prefixed tokens not redacted",
    file: "src/lib/redact.ts",
    find: "/sntry[a-z]_[A-Za-z0-9+/=_.-]+/g,",
    replace: "/sntry[a-z]_NEVER/g,",
    tests: ["test/lib/redact.test.ts", "test/e2e/logging.test.ts"],
  },
  {
    name: "bearer values not redacted",
    file: "src/lib/redact.ts",
    find: '/(Bearer\\s+)[^\\s",]+/gi,',
    replace: "/(Bearer NEVER)/gi,",
    tests: ["test/lib/redact.test.ts", "test/e2e/logging.test.ts"],
  },
  {
    name: "sanitiser lets escape sequences through",
    file: "src/lib/sanitize.ts",
    find: "  if (!SUSPECT.test(text) && !text.includes(STYLE_MARK)) return { text, styled: false };",
    replace: "  return { text, styled: false };",
    tests: ["test/e2e/terminal-safety.test.ts"],
  },
  {
    name: "sanitiser keeps C1 controls",
    file: "src/lib/sanitize.ts",
    find: "(code >= 0x7f && code <= 0x9f)",
    replace: "false",
    tests: ["test/e2e/terminal-safety.test.ts"],
  },
  {
    name: "child processes inherit the token",
    file: "src/lib/child-env.ts",
    find: "if (v !== undefined && !SECRET_VARS.has(k)) out[k] = v;",
    replace: "if (v !== undefined) out[k] = v;",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "browser opens any scheme",
    file: "src/lib/browser.ts",
    find: 'if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return undefined;',
    replace: "",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "errors print echoed tokens",
    file: "src/lib/error-render.ts",
    find: "const mask = (text: string) => redact(text, secrets, { longRuns: false });",
    replace: "const mask = (text: string) => text;",
    tests: ["test/fuzz/api-faults.fuzz.test.ts", "test/lib/guard-error-render.test.ts"],
  },
  {
    name: "tokens with line breaks are sent",
    file: "src/lib/auth/token.ts",
    find: "    assertHeaderSafe(env.token, env.source);",
    replace: "",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "nested requests get a retry budget of their own",
    file: "src/lib/http/retry.ts",
    find: "  if (current) return fn(current);\n",
    replace: "",
    tests: ["test/lib/http/budget.test.ts"],
  },
  {
    name: "server waits above the cap are slept",
    file: "src/lib/http/client.ts",
    find: "requested === undefined || requested <= MAX_SERVER_WAIT_MS",
    replace: "requested === undefined || requested >= 0",
    tests: ["test/lib/http/budget.test.ts", "test/lib/http/client.test.ts", "test/e2e/http-client.test.ts"],
  },
  {
    name: "a streamed body is read past the size cap",
    file: "src/lib/http/body.ts",
    find: "    if (size > MAX_RESPONSE_BYTES) {",
    replace: "    if (size < 0) {",
    tests: ["test/lib/http/bodies.test.ts"],
  },
  {
    name: "paging follows a repeating cursor",
    file: "src/lib/http/paginate.ts",
    find: "if (!res.nextCursor || seen.has(res.nextCursor)) break;",
    replace: "if (!res.nextCursor) break;",
    tests: ["test/lib/http/paginate.test.ts"],
  },
  {
    name: "a login of unknown service is sent",
    file: "src/lib/auth/token.ts",
    find: "  if (!stored.base_url) {",
    replace: "  if (stored.base_url === 'never') {",
    tests: ["test/e2e/auth.test.ts", "test/lib/trust.test.ts"],
  },
  {
    name: "a login is sent to another service",
    file: "src/lib/auth/token.ts",
    find: "  if (stored.base_url !== ctx.settings.baseUrl) throw noStoredLogin(ctx);",
    replace: "",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "writers do not wait for the lock",
    file: "src/lib/db/index.ts",
    find: "export const BUSY_TIMEOUT_MS = 10_000;",
    replace: "export const BUSY_TIMEOUT_MS = 0;",
    tests: ["test/e2e/db.test.ts"],
  },
  {
    name: "cli setup leaves the config dir to the umask",
    file: "src/lib/setup/skill.ts",
    find: "      if (t.privateDir !== undefined) ensurePrivateDir(t.privateDir);",
    replace: "",
    tests: ["test/dist/setup.test.ts"],
  },
  {
    name: "browser opens a look-alike host",
    file: "src/lib/browser.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal
    find: "host.endsWith(`.${own}`) ||",
    replace: "host.endsWith(own) ||",
    tests: ["test/lib/trust.test.ts", "test/lib/guard-browser.test.ts"],
  },
  {
    name: "a dropped write is resent",
    file: "src/lib/http/client.ts",
    find: "retryable && unsent === true",
    replace: "retryable",
    tests: ["test/e2e/guard-writes.test.ts"],
  },
  {
    name: "-c last continues another query",
    file: "src/commands/issue/list-fetch.ts",
    find: "    query: flags.query,\n    period: flags.win.key,",
    replace: "    period: flags.win.key,",
    tests: ["test/e2e/issue-list.test.ts", "test/e2e/guard-cursor.test.ts"],
  },
  {
    name: "JSON errors print echoed tokens",
    file: "src/lib/error-json.ts",
    find: "  if (out.error.detail) out.error.detail = mask(out.error.detail);",
    replace: "",
    tests: ["test/lib/guard-error-json.test.ts"],
  },
  {
    name: "bulk updates not split at 100 ids",
    file: "src/lib/issue/change.ts",
    find: "for (let i = 0; i < g.length; i += BULK_MAX) out.push(g.slice(i, i + BULK_MAX));",
    replace: "out.push(g);",
    tests: ["test/e2e/triage.test.ts", "test/e2e/guard-writes.test.ts"],
  },
  {
    name: "upgrade accepts another version's manifest",
    file: "src/lib/upgrade/release.ts",
    find: "if (version && parsed.output.version !== version) {",
    replace: "if (false) {",
    tests: ["test/lib/hardening-upgrade.test.ts", "test/lib/guard-upgrade-manifest.test.ts"],
  },
  {
    name: "relative time says 24h ago",
    file: "src/lib/format/time.ts",
    find: "if (h < 24) return",
    replace: "if (h <= 24) return",
    tests: ["test/lib/guard-time.test.ts"],
  },
  {
    name: "pager gets unsanitised text",
    file: "src/lib/pager.ts",
    find: "stdin: new Blob([sanitizeTerminal(withoutSecrets(text, ctx.secrets ?? []), ctx.color)]),",
    replace: "stdin: new Blob([text]),",
    tests: ["test/e2e/pager.test.ts", "test/e2e/guard-pager.test.ts"],
  },
  {
    name: "a write reuses a kept-alive connection (Bun resends a reset PUT)",
    file: "src/lib/http/client.ts",
    find: '...(method === "GET" ? {} : { keepalive: false }),',
    replace: "...{},",
    tests: ["test/e2e/guard-writes.test.ts"],
  },
  {
    name: "the run's token printed when the server echoes it",
    file: "src/lib/sanitize.ts",
    find: "const safe = sanitizeWrite(withoutSecrets(text, secrets), color);",
    replace: "const safe = sanitizeWrite(text, color);",
    tests: ["test/e2e/terminal-safety.test.ts"],
  },
  {
    name: "server SGR codes pass on a colour terminal",
    file: "src/lib/sanitize.ts",
    find: "if (isControl(code) || (code > 0xff && INVISIBLE.test(text[i] as string))) {",
    replace:
      "if ((isControl(code) && !(color && code === 0x1b && OWN_SGR.test(text.slice(i, i + 44)))) || (code > 0xff && INVISIBLE.test(text[i] as string))) {",
    tests: ["test/e2e/terminal-safety.test.ts"],
  },
  {
    name: "config dir chmodded whatever it is",
    file: "src/lib/private-dir.ts",
    find: "if (st.isSymbolicLink() || !isOurs(dir, st)) return;",
    replace: "",
    tests: ["test/e2e/config-dir.test.ts"],
  },
  {
    name: "env token sent to the stored login's host",
    file: "src/build-context.ts",
    find: "envToken ? () => orgClaimUrl(envToken) : () => storedLoginUrl(store, configDir),",
    replace: "() => storedLoginUrl(store, configDir),",
    tests: ["test/e2e/auth.test.ts"],
  },
  ...TURN3_MUTATIONS,
];
