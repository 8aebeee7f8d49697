import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

function dsnOf(org: string, slug: string): string {
  const p = api.state.projects.find((x) => x.org === org && x.slug === slug);
  if (!p) throw new Error(`no seeded project ${org}/${slug}`);
  return dsnFor(api.state, p);
}

function tree(files: Record<string, string>): string {
  const root = tempDir("tracker-e2e-tree-");
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

const view = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(["project", "view", ...args, "--json"], { api, token: USER_TOKEN, ...opts });
/** The same without --json, for the tests that read the text of an error (JSON mode prints it as JSON). */
const viewText = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(["project", "view", ...args], { api, token: USER_TOKEN, ...opts });

const slugOf = (stdout: string) => {
  const p = JSON.parse(stdout) as { slug: string; organization: { slug: string } };
  return `${p.organization.slug}/${p.slug}`;
};

describe("target forms", () => {
  test("<org>/<project> argument: no 'Using' line", async () => {
    const r = await view(["acme/web"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("acme/web");
  });

  test("a project URL of the service is accepted", async () => {
    const r = await view(["https://acme.sentry.io/settings/projects/api/"]);
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("acme/api");
  });

  test("<project> alone is searched across every organization", async () => {
    const r = await view(["billing"]);
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("globex/billing");
    expect(api.requestsTo("/api/0/projects/initech/billing/")).toHaveLength(1);
  });

  test("<project> in several orgs: ResolutionError listing org/project choices", async () => {
    const r = await viewText(["web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Project 'web' exists in 2 organizations.\n\nName it with its organization, e.g. `tracker project view acme/web`.\n\nOr:\n  - acme/web\n  - globex/web\n",
    );
  });

  test("<project> nowhere: hint to run project list", async () => {
    const r = await viewText(["nope"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toStartWith("Error: Project 'nope' was not found in any organization you can access.\n");
    expect(r.stderr).toContain("tracker project list");
  });

  test("<project> differing only in case: did you mean", async () => {
    const r = await view(["Billing"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Did you mean globex/billing? Slugs are case-sensitive.");
  });

  test("<org>/<project> differing only in case gets a did-you-mean on the 404", async () => {
    const r = await viewText(["acme/Web"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Project 'acme/Web' was not found.\n\nDid you mean acme/web? Slugs are case-sensitive.\n",
    );
    const o = await viewText(["Acme/web"]);
    expect(o.exitCode).toBe(23);
    expect(o.stderr).toStartWith("Error: Organization 'Acme' was not found.\n\nDid you mean acme/web?");
  });

  test("malformed target: ValidationError, exit 21", async () => {
    const r = await viewText(["acme/web/extra"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith(
      "Error: Invalid target 'acme/web/extra' (too many slashes). Use <org>/<project>",
    );
    expect(api.requests).toEqual([]);
  });

  test("<org>/ is only for the list commands", async () => {
    const r = await view(["acme/"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("only accepted by the list commands (issue, log, span, trace list)");
  });
});

describe("sources and precedence", () => {
  test("TRACKER_ORG/TRACKER_PROJECT", async () => {
    const r = await view([], { env: { TRACKER_ORG: "acme", TRACKER_PROJECT: "api" } });
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("acme/api");
    expect(r.stderr).toBe("Using acme/api (from TRACKER_ORG/TRACKER_PROJECT)\n");
  });

  test("TRACKER_PROJECT alone is searched across organizations", async () => {
    const r = await view([], { env: { TRACKER_PROJECT: "tps-reports" } });
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("initech/tps-reports");
    expect(r.stderr).toBe("Using initech/tps-reports (from TRACKER_PROJECT)\n");
  });

  test("argument > env > defaults > DSN", async () => {
    const configDir = tempDir();
    const cwd = tree({ ".git/HEAD": "x", ".env": `SENTRY_DSN=${dsnOf("acme", "web")}\n` });
    const opts = { configDir, cwd };
    expect(
      (await runCli(["defaults", "set", "acme/api"], { api, token: USER_TOKEN, ...opts })).exitCode,
    ).toBe(0);
    const env = { TRACKER_ORG: "globex", TRACKER_PROJECT: "billing" };

    const arg = await view(["acme/mobile-app"], { ...opts, env });
    expect(slugOf(arg.stdout)).toBe("acme/mobile-app");
    expect(arg.stderr).toBe("");

    const fromEnv = await view([], { ...opts, env });
    expect(slugOf(fromEnv.stdout)).toBe("globex/billing");
    expect(fromEnv.stderr).toBe("Using globex/billing (from TRACKER_ORG/TRACKER_PROJECT)\n");

    const fromDefaults = await view([], opts);
    expect(slugOf(fromDefaults.stdout)).toBe("acme/api");
    expect(fromDefaults.stderr).toBe("Using acme/api (from defaults)\n");

    expect((await runCli(["defaults", "clear"], { ...opts })).exitCode).toBe(0);
    const fromDsn = await view([], opts);
    expect(slugOf(fromDsn.stdout)).toBe("acme/web");
    expect(fromDsn.stderr).toBe("Using acme/web (from .env)\n");
  });

  test("--verbose logs every step of the cascade", async () => {
    const cwd = tree({ ".git/HEAD": "x", ".env": `SENTRY_DSN=${dsnOf("acme", "web")}\n` });
    const r = await view(["--verbose"], { cwd });
    expect(r.exitCode).toBe(0);
    const steps = r.stderr.split("\n").filter((l) => l.startsWith("[debug] Target:"));
    expect(steps[0]).toBe("[debug] Target: no argument");
    expect(steps[1]).toBe("[debug] Target: TRACKER_ORG/TRACKER_PROJECT not set");
    expect(steps[2]).toBe("[debug] Target: no stored defaults");
    expect(steps[3]).toStartWith("[debug] Target: scanned ");
    expect(steps[4]).toStartWith(`[debug] Target: DSN ${dsnOf("acme", "web")} → acme/web (from the API)`);
  });
});

describe("DSN detection", () => {
  test("hosted DSN: org id from the host, project by id on the org's region", async () => {
    const cwd = tree({
      "package.json": "{}",
      ".env.local": `NEXT_PUBLIC_SENTRY_DSN="${dsnOf("globex", "billing")}"\n`,
    });
    const r = await view([], { cwd });
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("globex/billing");
    expect(r.stderr).toBe("Using globex/billing (from .env.local)\n");
    expect(api.requestsTo("/api/0/organizations/100002/").map((q) => q.host)).toEqual(["control"]);
    expect(api.requestsTo("/api/0/projects/100002/300012/").map((q) => q.host)).toEqual(["de"]);
  });

  test("self-hosted DSN in source code: looked up by public key", async () => {
    const dsn = dsnOf("initech", "tps-reports");
    const cwd = tree({
      "composer.json": "{}",
      "public/index.php": `<?php\n\\Sentry\\init(['dsn' => '${dsn}']);\n`,
    });
    const r = await view([], { cwd });
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("initech/tps-reports");
    expect(r.stderr).toBe("Using initech/tps-reports (from public/index.php:2)\n");
    const lookups = api.requestsTo("/api/0/projects/");
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.query.get("query")).toBe(`dsn:${dsn.slice(7, 39)}`);
  });

  test("a server without the search by DSN key (404): says so and names the fix, not 'no project uses it'", async () => {
    const dsn = dsnOf("initech", "tps-reports");
    const cwd = tree({
      "composer.json": "{}",
      "public/index.php": `<?php\n\\Sentry\\init(['dsn' => '${dsn}']);\n`,
    });
    api.inject({ path: "/api/0/projects/", status: 404, body: { detail: "Not found" }, times: 10 });
    const r = await view([], { cwd });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("This server does not offer the project search by DSN key");
    expect(r.stderr).not.toContain("No project this token can access uses this DSN's key");
  });

  test("TRACKER_DSN in the environment", async () => {
    const r = await view([], { env: { TRACKER_DSN: dsnOf("acme", "worker") } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("Using acme/worker (from TRACKER_DSN)\n");
  });

  test("detection from a nested subdirectory", async () => {
    const root = tree({
      ".git/HEAD": "x",
      ".env": `SENTRY_DSN=${dsnOf("acme", "api")}\n`,
      "src/a/b/c.py": "",
    });
    const r = await view([], { cwd: join(root, "src/a/b") });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("Using acme/api (from ../../../.env)\n");
  });

  test("a DSN above the project root is not used", async () => {
    const outer = tree({
      ".env": `SENTRY_DSN=${dsnOf("acme", "api")}\n`,
      "repo/.git/HEAD": "x",
      "repo/src/x.ts": "",
    });
    const r = await viewText([], { cwd: join(outer, "repo/src") });
    expect(r.exitCode).toBe(22);
    expect(r.stderr.split("\n")[0]).toBe("Error: Organization and project are required.");
    expect(api.requests).toEqual([]);
  });

  test("warm run: no rescan and no API lookup; --fresh rescans and asks the API again", async () => {
    const configDir = tempDir();
    const cwd = tree({
      ".git/HEAD": "x",
      "src/app.ts": `Sentry.init({ dsn: "${dsnOf("acme", "web")}" });\n`,
    });
    const cold = await view(["--verbose"], { cwd, configDir });
    expect(cold.exitCode).toBe(0);
    expect(cold.stderr).toContain("[debug] Target: scanned ");
    api.reset();
    const warm = await view(["--verbose"], { cwd, configDir });
    expect(warm.exitCode).toBe(0);
    expect(warm.stderr).toContain("[debug] Target: DSN scan cache hit");
    expect(warm.stderr).not.toContain("Target: scanned");
    expect(warm.stderr).toContain("→ acme/web (cached)");
    expect(warm.stderr).toContain("Using acme/web (from src/app.ts:1)");
    expect(api.requestsTo(/^\/api\/0\/projects\/100001\//)).toEqual([]);
    api.reset();
    const fresh = await view(["--verbose", "--fresh"], { cwd, configDir });
    expect(fresh.exitCode).toBe(0);
    expect(fresh.stderr).toContain("[debug] Target: scanned ");
    expect(api.requestsTo("/api/0/projects/100001/300001/")).toHaveLength(1);
  });

  test("a DSN of a deleted project: ResolutionError naming the file", async () => {
    const dsn = `https://${"e".repeat(32)}@o100001.ingest.us.sentry.io/999999`;
    const cwd = tree({
      "go.mod": "module x",
      "main.go": `sentry.Init(sentry.ClientOptions{\n\tDsn: "${dsn}",\n})\n`,
    });
    const r = await viewText([], { cwd });
    expect(r.exitCode).toBe(23);
    expect(r.stderr.split("\n")[0]).toBe(
      "Error: DSN from main.go:2 could not be matched to any accessible project.",
    );
  });

  test("a self-hosted DSN no project uses: ResolutionError naming the file", async () => {
    const u = new URL(api.url);
    const cwd = tree({ ".env": `SENTRY_DSN=http://${"d".repeat(32)}@${u.host}/5\n` });
    const r = await viewText([], { cwd });
    expect(r.exitCode).toBe(23);
    expect(r.stderr.split("\n")[0]).toBe(
      "Error: DSN from .env could not be matched to any accessible project.",
    );
  });

  test("several DSNs: a single-project command lists the choices", async () => {
    const cwd = tree({
      ".git/HEAD": "x",
      "apps/web/.env": `SENTRY_DSN=${dsnOf("acme", "web")}\n`,
      "apps/api/main.py": `sentry_sdk.init(dsn="${dsnOf("acme", "api")}")\n`,
    });
    const r = await viewText([], { cwd });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Target is ambiguous: 2 projects were detected.\n\nName one of them, e.g. `tracker project view acme/web`.\n\nOr:\n  - acme/web (from apps/web/.env)\n  - acme/api (from apps/api/main.py:1)\n",
    );
  });
});

describe("missing context", () => {
  test("project view: Organization and project are required (exact first lines)", async () => {
    const r = await viewText([]);
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "Error: Organization and project are required.",
        "",
        "  tracker project view <org>/<project>",
        "",
        "Or:",
        "  - set TRACKER_ORG and TRACKER_PROJECT",
        "  - run `tracker defaults set <org>/<project>`",
        "  - add a DSN (TRACKER_DSN in .env, or your SDK init code) to this directory",
        "",
      ].join("\n"),
    );
  });

  test("project list: Organization is required", async () => {
    const r = await runCli(["project", "list"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(22);
    expect(r.stderr.split("\n").slice(0, 3)).toEqual([
      "Error: Organization is required.",
      "",
      "  tracker project list <org>",
    ]);
  });

  test("an org from TRACKER_ORG alone is used in the example", async () => {
    const r = await viewText([], { env: { TRACKER_ORG: "acme" } });
    expect(r.exitCode).toBe(22);
    expect(r.stderr.split("\n").slice(0, 3)).toEqual([
      "Error: Organization and project are required.",
      "",
      "  tracker project view acme/<project>",
    ]);
  });
});

describe("auth status shows the detected DSN", () => {
  test("JSON and human forms name the DSN and its file", async () => {
    const dsn = dsnOf("acme", "web");
    const cwd = tree({ ".git/HEAD": "x", ".env": `# app\nSENTRY_DSN=${dsn}\n` });
    const j = await runCli(["auth", "status", "--json"], { api, token: USER_TOKEN, cwd });
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout).dsn).toEqual({ dsn, source: ".env" });
    const h = await runCli(["auth", "status"], { api, token: USER_TOKEN, cwd });
    expect(h.stdout).toContain(`DSN:           ${dsn} (from .env)\n`);
  });

  test("no DSN: null; an invalid TRACKER_DSN is a warning, not a failure", async () => {
    const none = await runCli(["auth", "status", "--json"], { api, token: USER_TOKEN });
    expect(JSON.parse(none.stdout).dsn).toBeNull();
    const bad = await runCli(["auth", "status", "--json"], {
      api,
      token: USER_TOKEN,
      env: { TRACKER_DSN: "oops" },
    });
    expect(bad.exitCode).toBe(0);
    expect(JSON.parse(bad.stdout).dsn).toBeNull();
    expect(bad.stderr).toContain("Warning: DSN detection failed: TRACKER_DSN is not a valid DSN.");
  });
});
