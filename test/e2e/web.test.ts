/** `--web` on the view commands: the service's page, opened through the hardened opener or printed. */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { orgWebUrl } from "../../src/lib/web.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type RunOptions, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: Omit<RunOptions, "api" | "token"> = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });
const page = (path: string) => `${api.url}/organizations/acme/${path}`;
const paths = () => api.requests.map((r) => r.path);

describe("--web prints the page's URL when no browser is opened (piped)", () => {
  test("issue view: by short id, and with no request at all once the reference is known", async () => {
    const configDir = tempDir();
    const r = await run(["issue", "view", "acme/WEB-4Y", "--web"], { configDir });
    expect(r).toEqual({ exitCode: 0, stdout: `${page("issues/4158/")}\n`, stderr: "" });
    expect(paths()).not.toContain("/api/0/organizations/acme/issues/4158/events/latest/");
    api.reset();
    const again = await run(["issue", "view", "acme/WEB-4Y", "-w"], { configDir });
    expect(again.stdout).toBe(`${page("issues/4158/")}\n`);
    expect(api.requests).toEqual([]);
  });

  test("event view: the event's page under its issue", async () => {
    const issue = findIssue(api.state, "4158");
    if (!issue) throw new Error("seed changed: no issue 4158");
    const id = eventIdOf(issue, 0);
    const r = await run(["event", "view", `acme/web/${id}`, "--web"]);
    expect(r).toEqual({ exitCode: 0, stdout: `${page(`issues/4158/events/${id}/`)}\n`, stderr: "" });
  });

  test("trace view: no span request is made", async () => {
    const r = await run(["trace", "view", TRACE_NESTED, "acme", "--web"]);
    expect(r).toEqual({ exitCode: 0, stdout: `${page(`performance/trace/${TRACE_NESTED}/`)}\n`, stderr: "" });
    expect(paths().filter((p) => p.includes("trace"))).toEqual([]);
  });

  test("org view and project view", async () => {
    const org = await run(["org", "view", "acme", "--web"]);
    expect(org).toEqual({ exitCode: 0, stdout: `${page("")}\n`, stderr: "" });
    const project = await run(["project", "view", "acme/web", "-w"]);
    expect(project).toEqual({ exitCode: 0, stdout: `${page("projects/web/")}\n`, stderr: "" });
  });

  test("--json --web is one document with the URL; nothing is opened", async () => {
    const r = await run(["org", "view", "acme", "--web", "--json"], {
      terminal: { stdin: true, stderr: true },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ url: page("") });
    expect(r.stderr).toBe("");
  });

  test("an unknown issue is still the usual error, not a URL", async () => {
    const r = await run(["issue", "view", "acme/NOPE-1", "--web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
  });
});

describe.skipIf(process.platform !== "linux")("--web on an interactive terminal", () => {
  /** A fake `xdg-open` that records its arguments and whether it saw a token. */
  function fakeOpener(): { dir: string; log: string } {
    const dir = tempDir("tracker-opener-");
    const log = join(dir, "opened");
    const bin = join(dir, "xdg-open");
    writeFileSync(
      bin,
      `#!/bin/sh\nprintf '%s|%s|%s\\n' "$#" "$1" "\${TRACKER_AUTH_TOKEN:-no-token}" > '${log}'\n`,
    );
    chmodSync(bin, 0o755);
    return { dir, log };
  }

  test("opens the page through xdg-open, without tracker's token, and says so on stderr", async () => {
    const opener = fakeOpener();
    const r = await run(["project", "view", "acme/web", "--web"], {
      terminal: { stdin: true, stderr: true, stdout: true },
      env: { PATH: `${opener.dir}:/usr/bin:/bin`, NO_COLOR: "1", CI: "" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`Opening ${page("projects/web/")} in your browser.\n`);
    for (let i = 0; i < 100 && !existsSync(opener.log); i++) await Bun.sleep(20);
    expect(readFileSync(opener.log, "utf8")).toBe(`1|${page("projects/web/")}|no-token\n`);
  });

  test("no opener on PATH: the URL is printed instead", async () => {
    const r = await run(["org", "view", "acme", "--web"], {
      terminal: { stdin: true, stderr: true, stdout: true },
      env: { PATH: tempDir("tracker-empty-path-"), CI: "" },
    });
    expect(r).toEqual({ exitCode: 0, stdout: `${page("")}\n`, stderr: "" });
  });

  test("in CI the URL is printed, never opened", async () => {
    const opener = fakeOpener();
    const r = await run(["org", "view", "acme", "--web"], {
      terminal: { stdin: true, stderr: true, stdout: true },
      env: { PATH: `${opener.dir}:/usr/bin:/bin`, CI: "true" },
    });
    expect(r.stdout).toBe(`${page("")}\n`);
    await Bun.sleep(100);
    expect(existsSync(opener.log)).toBe(false);
  });
});

describe("web URLs", () => {
  test("hosted uses the organization's customer domain; self-hosted the path form, keeping a path prefix", () => {
    expect(orgWebUrl("https://sentry.io", "acme")).toBe("https://acme.sentry.io/");
    expect(orgWebUrl("https://us.sentry.io", "acme")).toBe("https://acme.sentry.io/");
    expect(orgWebUrl("https://sentry.example.com", "acme")).toBe(
      "https://sentry.example.com/organizations/acme/",
    );
    expect(orgWebUrl("https://example.com/sentry/", "acme")).toBe(
      "https://example.com/sentry/organizations/acme/",
    );
  });
});
