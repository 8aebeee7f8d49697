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

/** The critical paths of issue 11: upgrade, checksums, DSN secrets, colour, file modes, redaction, sanitising. */
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
    file: "src/main.ts",
    find: "const color = isStderrTTY && !env.NO_COLOR;",
    replace: "const color = isStderrTTY;",
    tests: ["test/e2e/color.test.ts"],
  },
  {
    name: "colour on when not a terminal",
    file: "src/main.ts",
    find: "const color = isStderrTTY && !env.NO_COLOR;",
    replace: "const color = !env.NO_COLOR;",
    tests: ["test/e2e/color.test.ts"],
  },
  {
    name: "rc and skill files keep the umask's mode",
    file: "src/lib/setup/atomic.ts",
    find: "chmodSync(tmp, keep?.mode ?? mode);",
    replace: "",
    tests: ["test/lib/trust.test.ts", "test/dist/setup.test.ts"],
  },
  {
    name: "rc files lose their own mode",
    file: "src/lib/setup/atomic.ts",
    find: "chmodSync(tmp, keep?.mode ?? mode);",
    replace: "chmodSync(tmp, mode);",
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
    find: "  if (!/[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]/.test(text)) return text;",
    replace: "  return text;",
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
    file: "src/lib/auth/device-flow.ts",
    find: 'if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return undefined;',
    replace: "",
    tests: ["test/lib/trust.test.ts"],
  },
  {
    name: "errors print echoed tokens",
    file: "src/lib/error-render.ts",
    find: "const mask = (text: string) => redact(text, secrets, { longRuns: false });",
    replace: "const mask = (text: string) => text;",
    tests: ["test/fuzz/api-faults.fuzz.test.ts"],
  },
  {
    name: "tokens with line breaks are sent",
    file: "src/lib/auth/token.ts",
    find: "    assertHeaderSafe(env.token, env.source);",
    replace: "",
    tests: ["test/lib/trust.test.ts"],
  },
];
