/** Issue 24: organization and project from SENTRY_* variables, .sentryclirc, sentry.properties and `defaults --here`. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

function write(root: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

/** A home directory with a project inside (`proj`, a git checkout), and the files given (paths from home). */
function home(files: Record<string, string> = {}): { home: string; proj: string } {
  const h = write(tempDir("tracker-home-"), { "proj/.git/HEAD": "x", ...files });
  return { home: h, proj: join(h, "proj") };
}

type Opts = { cwd: string; home: string; env?: Record<string, string | undefined>; configDir?: string };
const view = (args: string[], o: Opts) =>
  runCli(["project", "view", ...args, "--json"], {
    api,
    token: USER_TOKEN,
    cwd: o.cwd,
    configDir: o.configDir,
    env: { HOME: o.home, ...o.env },
  });
const slugOf = (stdout: string) => {
  const p = JSON.parse(stdout) as { slug: string; organization: { slug: string } };
  return `${p.organization.slug}/${p.slug}`;
};

describe("environment fallbacks", () => {
  test("SENTRY_ORG/SENTRY_PROJECT are used, and each TRACKER_* name beats its SENTRY_* name", async () => {
    const h = home();
    const sentry = await view([], {
      cwd: h.proj,
      home: h.home,
      env: { SENTRY_ORG: "acme", SENTRY_PROJECT: "api" },
    });
    expect(sentry.exitCode).toBe(0);
    expect(slugOf(sentry.stdout)).toBe("acme/api");
    expect(sentry.stderr).toBe("Using acme/api (from SENTRY_ORG/SENTRY_PROJECT)\n");
    const both = await view([], {
      cwd: h.proj,
      home: h.home,
      env: { SENTRY_ORG: "acme", SENTRY_PROJECT: "api", TRACKER_ORG: "globex", TRACKER_PROJECT: "billing" },
    });
    expect(slugOf(both.stdout)).toBe("globex/billing");
    expect(both.stderr).toBe("Using globex/billing (from TRACKER_ORG/TRACKER_PROJECT)\n");
    const mixed = await view([], {
      cwd: h.proj,
      home: h.home,
      env: { SENTRY_ORG: "globex", TRACKER_ORG: "acme", SENTRY_PROJECT: "web" },
    });
    expect(slugOf(mixed.stdout)).toBe("acme/web");
    expect(mixed.stderr).toBe("Using acme/web (from TRACKER_ORG/SENTRY_PROJECT)\n");
  });

  test("SENTRY_DSN is detected below TRACKER_DSN", async () => {
    const h = home();
    const web = dsnFor(
      api.state,
      api.state.projects.find((p) => p.org === "acme" && p.slug === "web") as never,
    );
    const apiDsn = dsnFor(
      api.state,
      api.state.projects.find((p) => p.org === "acme" && p.slug === "api") as never,
    );
    const r = await view([], { cwd: h.proj, home: h.home, env: { SENTRY_DSN: web } });
    expect(slugOf(r.stdout)).toBe("acme/web");
    expect(r.stderr).toBe("Using acme/web (from SENTRY_DSN)\n");
    const both = await view([], { cwd: h.proj, home: h.home, env: { SENTRY_DSN: web, TRACKER_DSN: apiDsn } });
    expect(slugOf(both.stdout)).toBe("acme/api");
    expect(both.stderr).toBe("Using acme/api (from TRACKER_DSN)\n");
  });
});

describe("configuration files", () => {
  test(".sentryclirc in the project: used and named; quotes, comments, case and BOM as sentry-cli reads them", async () => {
    const h = home({
      "proj/.sentryclirc": '\uFEFF# team settings\n[Defaults]\nORG = "acme"\n; the service\nProject=api\n',
    });
    const r = await view([], { cwd: h.proj, home: h.home });
    expect(r.exitCode).toBe(0);
    expect(slugOf(r.stdout)).toBe("acme/api");
    expect(r.stderr).toBe("Using acme/api (from .sentryclirc)\n");
  });

  test("looked up from the working directory upward; a local key beats ~/.sentryclirc key by key", async () => {
    const h = home({
      ".sentryclirc": "[defaults]\norg=globex\nproject=billing\n",
      "proj/.sentryclirc": "[defaults]\nproject=web\n",
    });
    const sub = join(h.proj, "src", "deep");
    mkdirSync(sub, { recursive: true });
    // project from the project's file, org from the home file: globex/web.
    const r = await view([], { cwd: sub, home: h.home });
    expect(slugOf(r.stdout)).toBe("globex/web");
    expect(r.stderr).toBe("Using globex/web (from ~/.sentryclirc and ../../.sentryclirc)\n");
    // Outside the project only the home file applies.
    const outside = await view([], { cwd: h.home, home: h.home });
    expect(slugOf(outside.stdout)).toBe("globex/billing");
    expect(outside.stderr).toBe("Using globex/billing (from ~/.sentryclirc)\n");
  });

  test("sentry.properties in the working directory or at SENTRY_PROPERTIES, Java escapes", async () => {
    const h = home({
      "proj/sentry.properties":
        "defaults.url=https\\://sentry.io/\ndefaults.org=acme\ndefaults.project=mobile\\u002Dapp\n",
      "elsewhere/app.properties": "defaults.org = globex\ndefaults.project : billing\n",
    });
    const r = await view([], { cwd: h.proj, home: h.home });
    expect(slugOf(r.stdout)).toBe("acme/mobile-app");
    expect(r.stderr).toBe("Using acme/mobile-app (from sentry.properties)\n");
    const env = { SENTRY_PROPERTIES: join(h.home, "elsewhere/app.properties") };
    const at = await view([], { cwd: h.proj, home: h.home, env });
    expect(slugOf(at.stdout)).toBe("globex/billing");
    expect(at.stderr).toBe("Using globex/billing (from ../elsewhere/app.properties)\n");
  });

  test("argument > environment > stored defaults > files", async () => {
    const h = home({ "proj/.sentryclirc": "[defaults]\norg=acme\nproject=web\n" });
    const configDir = tempDir();
    const o = { cwd: h.proj, home: h.home, configDir };
    expect(slugOf((await view([], o)).stdout)).toBe("acme/web");
    const set = await runCli(["defaults", "set", "acme/api"], {
      api,
      token: USER_TOKEN,
      configDir,
      cwd: h.proj,
      env: { HOME: h.home },
    });
    expect(set.exitCode).toBe(0);
    const stored = await view([], o);
    expect(slugOf(stored.stdout)).toBe("acme/api");
    expect(stored.stderr).toBe("Using acme/api (from defaults)\n");
    const env = await view([], { ...o, env: { SENTRY_ORG: "globex", SENTRY_PROJECT: "billing" } });
    expect(slugOf(env.stdout)).toBe("globex/billing");
    const arg = await view(["initech/tps-reports"], {
      ...o,
      env: { SENTRY_ORG: "globex", SENTRY_PROJECT: "billing" },
    });
    expect(slugOf(arg.stdout)).toBe("initech/tps-reports");
    expect(arg.stderr).toBe("");
  });
});

describe("defaults --here and defaults show", () => {
  test("a default for this project only: used inside the tree, not outside; listed; cleared", async () => {
    const h = home({ ".sentryclirc": "[defaults]\norg=globex\nproject=billing\n" });
    const configDir = tempDir();
    const run = (args: string[], cwd: string) =>
      runCli(args, { api, token: USER_TOKEN, configDir, cwd, env: { HOME: h.home } });
    const set = await run(["defaults", "set", "--here", "acme/api"], join(h.proj));
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe(`Default set to acme/api for ${h.proj}.\n`);
    const global = await run(["defaults", "set", "acme/web"], h.home);
    expect(global.exitCode).toBe(0);

    mkdirSync(join(h.proj, "pkg"), { recursive: true });
    const inside = await view([], { cwd: join(h.proj, "pkg"), home: h.home, configDir });
    expect(slugOf(inside.stdout)).toBe("acme/api");
    expect(inside.stderr).toBe("Using acme/api (from defaults --here)\n");
    const outside = await view([], { cwd: h.home, home: h.home, configDir });
    expect(slugOf(outside.stdout)).toBe("acme/web");
    expect(outside.stderr).toBe("Using acme/web (from defaults)\n");

    const show = await run(["defaults"], h.proj);
    expect(show.stdout).toBe(
      [
        "Organization:  acme (from defaults --here)",
        "Project:       api (from defaults --here)",
        `URL:           ${api.url} (from TRACKER_URL)`,
        `Here:          acme/api (for ${h.proj})`,
        "Global:        acme/web (shadowed here by defaults --here)",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await run(["defaults", "--json"], h.proj)).stdout);
    expect(json).toEqual({
      org: "acme",
      project: "api",
      url: api.url,
      sources: {
        org: { kind: "here", label: "defaults --here", path: h.proj },
        project: { kind: "here", label: "defaults --here", path: h.proj },
        url: { kind: "env", label: "TRACKER_URL", path: null },
      },
      here: { root: h.proj, org: "acme", project: "api" },
      global: { org: "acme", project: "web", shadowed: true },
      environments: [],
    });

    const clear = await run(["defaults", "clear", "--here", "--json"], join(h.proj, "pkg"));
    expect(JSON.parse(clear.stdout)).toEqual({ cleared: true, root: h.proj });
    const after = await view([], { cwd: h.proj, home: h.home, configDir });
    expect(slugOf(after.stdout)).toBe("acme/web");
  });

  test("--here outside any project is refused, nothing stored or sent", async () => {
    const h = home();
    const dir = join(h.home, "loose");
    mkdirSync(dir);
    const r = await runCli(["defaults", "set", "--here", "acme/web"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
      env: { HOME: h.home },
    });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("is not inside a project");
    expect(api.requests).toEqual([]);
  });

  test("show lists each value with its source: files, environment, and the URL of a file", async () => {
    const h = home({
      ".sentryclirc": `[defaults]\norg=globex\nurl=${api.url}\n`,
      "proj/.sentryclirc": "[defaults]\nproject=web\n",
    });
    const r = await runCli(["defaults", "show", "--json"], {
      cwd: h.proj,
      env: { HOME: h.home, TRACKER_URL: undefined },
    });
    expect(JSON.parse(r.stdout)).toEqual({
      org: "globex",
      project: "web",
      url: api.url,
      sources: {
        org: { kind: "file", label: "~/.sentryclirc", path: join(h.home, ".sentryclirc") },
        project: { kind: "file", label: ".sentryclirc", path: join(h.proj, ".sentryclirc") },
        url: { kind: "file", label: "~/.sentryclirc", path: join(h.home, ".sentryclirc") },
      },
      here: null,
      global: null,
      environments: [],
    });
    const human = await runCli(["defaults"], {
      cwd: h.proj,
      env: { HOME: h.home, TRACKER_URL: undefined, SENTRY_ORG: "acme" },
    });
    expect(human.stdout).toBe(
      `Organization:  acme (from SENTRY_ORG)\nProject:       web (from .sentryclirc)\nURL:           ${api.url} (from ~/.sentryclirc)\n`,
    );
    expect(human.stderr).toBe(
      "SENTRY_ORG=acme is set and takes precedence over the org from ~/.sentryclirc (globex).\n",
    );
  });
});
