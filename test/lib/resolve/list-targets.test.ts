import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { lookupAlias } from "../../../src/lib/db/aliases.ts";
import { resolveListTargets } from "../../../src/lib/resolve/list-targets.ts";
import { dsnFor, USER_TOKEN } from "../../fake-api/seed.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const dsnOf = (org: string, slug: string) =>
  dsnFor(api.state, api.state.projects.find((p) => p.org === org && p.slug === slug) as never);

function tree(files: Record<string, string>): string {
  const root = tempDir("tracker-mono-");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const opts = { command: "tracker issue list" };

describe("resolveListTargets", () => {
  test("monorepo: several DSNs give multi mode with aliases, stored for later commands", async () => {
    const root = tree({
      ".git/HEAD": "x",
      "apps/web/.env": `SENTRY_DSN=${dsnOf("acme", "web")}\n`,
      "services/api/app.py": `sentry_sdk.init(dsn="${dsnOf("acme", "api")}")\n`,
      "packages/mobile/src/index.ts": `Sentry.init({ dsn: "${dsnOf("acme", "mobile-app")}" });\n`,
    });
    const configDir = tempDir();
    const t = createTestContext({ api, cwd: root, configDir, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const r = await resolveListTargets(t.ctx, undefined, opts);
    expect(r).toEqual({
      mode: "multi",
      projects: [
        { org: "acme", project: "web", source: "apps/web/.env", alias: "w" },
        { org: "acme", project: "api", source: "services/api/app.py:1", alias: "a" },
        { org: "acme", project: "mobile-app", source: "packages/mobile/src/index.ts:1", alias: "m" },
      ],
    });
    expect(t.stderr()).toBe(
      "Using 3 detected projects: acme/web (w, from apps/web/.env), acme/api (a, from services/api/app.py:1), acme/mobile-app (m, from packages/mobile/src/index.ts:1)\n",
    );
    // A later command (another context on the same config dir) finds the alias.
    const later = createTestContext({ api, configDir });
    expect(lookupAlias(later.ctx, "M")).toEqual({ alias: "m", org: "acme", project: "mobile-app" });
  });

  test("the same slug in two organizations is org-prefixed", async () => {
    const root = tree({
      ".git/HEAD": "x",
      "apps/site/.env": `SENTRY_DSN=${dsnOf("acme", "web")}\n`,
      "apps/shop/.env": `SENTRY_DSN=${dsnOf("globex", "web")}\n`,
      "apps/billing/.env": `SENTRY_DSN=${dsnOf("globex", "billing")}\n`,
    });
    const t = createTestContext({ api, cwd: root, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const r = await resolveListTargets(t.ctx, undefined, opts);
    if (r.mode !== "multi") throw new Error(`expected multi, got ${r.mode}`);
    expect(r.projects.map((p) => `${p.alias} ${p.org}/${p.project}`)).toEqual([
      "b globex/billing",
      "g-w globex/web",
      "a-w acme/web",
    ]);
    expect(lookupAlias(t.ctx, "g-w")?.org).toBe("globex");
  });

  test("common prefix of slugs is stripped before shortening", async () => {
    api.state.projects.push(
      { ...api.state.projects[0], id: "300101", slug: "shop-frontend", publicKey: "1".repeat(32) } as never,
      { ...api.state.projects[0], id: "300102", slug: "shop-backend", publicKey: "2".repeat(32) } as never,
    );
    try {
      const root = tree({
        ".git/HEAD": "x",
        "a/.env": `SENTRY_DSN=${dsnOf("acme", "shop-frontend")}\n`,
        "b/.env": `SENTRY_DSN=${dsnOf("acme", "shop-backend")}\n`,
      });
      const t = createTestContext({ api, cwd: root, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
      const r = await resolveListTargets(t.ctx, undefined, opts);
      if (r.mode !== "multi") throw new Error(`expected multi, got ${r.mode}`);
      expect(r.projects.map((p) => p.alias)).toEqual(["f", "b"]);
    } finally {
      api.state.projects.splice(-2, 2);
    }
  });

  test("one DSN: single mode, announced", async () => {
    const root = tree({ ".env": `SENTRY_DSN=${dsnOf("acme", "web")}\n` });
    const t = createTestContext({ api, cwd: root, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    expect(await resolveListTargets(t.ctx, undefined, opts)).toEqual({
      mode: "single",
      project: { org: "acme", project: "web", source: ".env" },
    });
    expect(t.stderr()).toBe("Using acme/web (from .env)\n");
  });

  test("<org>/ is org-wide and makes no request", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    expect(await resolveListTargets(t.ctx, "acme/", opts)).toEqual({
      mode: "org",
      org: "acme",
      source: "argument",
    });
    expect(api.requests).toEqual([]);
  });

  test("env beats DSNs even in a monorepo", async () => {
    const root = tree({
      ".git/HEAD": "x",
      "a/.env": `SENTRY_DSN=${dsnOf("acme", "web")}\n`,
      "b/.env": `SENTRY_DSN=${dsnOf("acme", "api")}\n`,
    });
    const t = createTestContext({
      api,
      cwd: root,
      env: { TRACKER_AUTH_TOKEN: USER_TOKEN, TRACKER_ORG: "globex", TRACKER_PROJECT: "billing" },
    });
    expect(await resolveListTargets(t.ctx, undefined, opts)).toEqual({
      mode: "single",
      project: { org: "globex", project: "billing", source: "TRACKER_ORG/TRACKER_PROJECT" },
    });
    expect(api.requests).toEqual([]);
  });
});
