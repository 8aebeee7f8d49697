import { describe, expect, test } from "bun:test";
import { faults } from "../fake-api/http.ts";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { findRelease } from "../fake-api/routes/releases.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
const run = (args: string[], token = ciToken()) => runCli(args, { api, token });
/** The changes the fake received (the org token's region lookup is not one). */
const writes = () =>
  api.requests
    .filter((r) => r.method !== "GET")
    .map((r) => ({
      method: r.method,
      path: r.path,
      status: r.status,
      body: r.body ? JSON.parse(r.body) : undefined,
    }));
const NOW = "2026-01-15T12:00:00.000Z";

describe("release create", () => {
  test("one POST with the target's project; created (201) is said on stdout", async () => {
    const r = await run(["release", "create", "web@2.0.0", "acme/web", "--ref", "abc123"]);
    expect(r).toEqual({ exitCode: 0, stdout: "Created release web@2.0.0 in acme (web).\n", stderr: "" });
    expect(writes()).toEqual([
      {
        method: "POST",
        path: "/api/0/organizations/acme/releases/",
        status: 201,
        body: { version: "web@2.0.0", projects: ["web"], ref: "abc123" },
      },
    ]);
  });

  test("an existing version (208) is success: said on stderr, exit 0, --json says created: false", async () => {
    const r = await run(["release", "create", "web@1.4.0", "acme/web", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "Release web@1.4.0 already exists in acme with these projects; it was not changed.\n",
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.created).toBe(false);
    expect(doc.release).toMatchObject({ version: "web@1.4.0", commitCount: 2 });
    expect(writes().map((w) => w.status)).toEqual([208]);
    const human = await run(["release", "create", "web@1.4.0", "acme/web"]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toBe("");
  });

  test("--finalize: dateReleased in the same POST (one round trip); -p names several projects", async () => {
    const r = await runCli(["release", "create", "2.1.0", "acme", "-p", "web", "-p", "api", "--finalize"], {
      api,
      token: ciToken(),
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toStartWith("Created release 2.1.0 in acme (web, api) and finalized it.");
    expect(writes()).toEqual([
      {
        method: "POST",
        path: "/api/0/organizations/acme/releases/",
        status: 201,
        body: { version: "2.1.0", projects: ["web", "api"], dateReleased: expect.any(String) },
      },
    ]);
    expect(findRelease(api.state, "acme", "2.1.0")?.dateReleased).not.toBeNull();
  });

  test("--finalize of an existing unfinalized release: the 208, then the PUT that finalizes it", async () => {
    const r = await run(["release", "create", "api@1.5.0", "acme/api", "--finalize"]);
    expect(r.exitCode).toBe(0);
    expect(writes().map((w) => `${w.method} ${w.status}`)).toEqual(["POST 208", "PUT 200"]);
    expect(r.stderr).toContain("Finalized api@1.5.0");
  });

  test("--dry-run prints the exact request and sends nothing", async () => {
    const r = await run([
      "release",
      "create",
      "web@3.0.0",
      "acme/web",
      "--url",
      "https://x.test/c",
      "--dry-run",
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'POST /api/0/organizations/acme/releases/\n{\n  "version": "web@3.0.0",\n  "projects": [\n    "web"\n  ],\n  "url": "https://x.test/c"\n}\n',
    );
    expect(r.stderr).toBe("Dry run: nothing was sent.\n");
    const j = await run(["release", "create", "web@3.0.0", "acme/web", "--dry-run", "--json"]);
    expect(JSON.parse(j.stdout)).toEqual({
      dryRun: true,
      requests: [
        {
          method: "POST",
          path: "/api/0/organizations/acme/releases/",
          body: { version: "web@3.0.0", projects: ["web"] },
        },
      ],
    });
    expect(api.requests).toEqual([]);
    expect(findRelease(api.state, "acme", "web@3.0.0")).toBeUndefined();
  });

  test.each([["latest"], [".."], ["a\\b"], [""]])(
    "version %p is refused before any request (exit 21)",
    async (v) => {
      const r = await run(["release", "create", v, "acme/web"]);
      expect(r.exitCode).toBe(21);
      expect(r.stdout).toBe("");
      expect(api.requests).toEqual([]);
    },
  );

  test("an unknown project: the service's 400 with its field message (exit 30)", async () => {
    const r = await run(["release", "create", "x@1", "acme", "-p", "nope"]);
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toBe(
      "Error: Request failed with status 400\n  projects: Invalid project ids or slugs\n",
    );
  });

  test("a user token without project:write gets 403; a create is not resent after a 5xx", async () => {
    const r = await run(["release", "create", "web@4.0.0", "acme/web"], USER_TOKEN);
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toStartWith("Error: Request failed with status 403");
    api.reset();
    api.inject(faults.internalError(undefined, { method: "POST" }));
    const f = await run(["release", "create", "web@4.0.0", "acme/web"]);
    expect(f.exitCode).toBe(30);
    expect(writes()).toHaveLength(1);
  });
});

describe("release finalize / delete / deploy", () => {
  test("finalize: one PUT of dateReleased (now, or --released)", async () => {
    const r = await run(["release", "finalize", "mobile-app@1.5.0", "acme"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toStartWith("Finalized release mobile-app@1.5.0 in acme (released ");
    const at = await run([
      "release",
      "finalize",
      "worker@1.5.0",
      "acme/worker",
      "--released",
      "2026-01-14 08:00",
      "--json",
    ]);
    expect(JSON.parse(at.stdout)).toMatchObject({
      version: "worker@1.5.0",
      dateReleased: "2026-01-14T08:00:00.000Z",
    });
    const w = writes();
    expect(w.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
      "PUT /api/0/organizations/acme/releases/mobile-app%401.5.0/ 200",
      "PUT /api/0/organizations/acme/releases/worker%401.5.0/ 200",
    ]);
    expect(Object.keys(w[0]?.body)).toEqual(["dateReleased"]);
    expect(w[1]?.body).toEqual({ dateReleased: "2026-01-14T08:00:00.000Z" });
    const bad = await run(["release", "finalize", "web@1.5.0", "acme", "--released", "yesterday"]);
    expect(bad.exitCode).toBe(21);
  });

  test("finalize --dry-run with Unix seconds; an unknown release is exit 23", async () => {
    const r = await run([
      "release",
      "finalize",
      "web@1.5.0",
      "acme",
      "--released",
      "1768478400",
      "--dry-run",
      "--json",
    ]);
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: true,
      requests: [
        {
          method: "PUT",
          path: "/api/0/organizations/acme/releases/web%401.5.0/",
          body: { dateReleased: NOW },
        },
      ],
    });
    expect(api.requests).toEqual([]);
    const missing = await run(["release", "finalize", "web@9.9.9", "acme"]);
    expect(missing.exitCode).toBe(23);
  });

  test("delete: one DELETE (204); a release issues refer to is refused (400)", async () => {
    const dry = await run(["release", "delete", "api@1.4.0", "acme", "--dry-run"]);
    expect(dry.stdout).toBe("DELETE /api/0/organizations/acme/releases/api%401.4.0/\n");
    expect(api.requests).toEqual([]);
    const r = await run(["release", "delete", "api@1.4.0", "acme", "--json", "--yes"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: "api@1.4.0", org: "acme" });
    expect(findRelease(api.state, "acme", "api@1.4.0")).toBeUndefined();
    const refused = await run(["release", "delete", "web@1.5.0", "acme", "--yes"]);
    expect(refused.exitCode).toBe(30);
    expect(refused.stderr).toContain("This release is referenced by active issues and cannot be removed.");
    expect(writes().map((w) => `${w.method} ${w.status}`)).toEqual(["DELETE 204", "DELETE 400"]);
  });

  test("deploy: one POST (201); --json is the deploy; deploys then lists it", async () => {
    const r = await run([
      "release",
      "deploy",
      "api@1.5.0",
      "acme",
      "-e",
      "production",
      "--name",
      "canary",
      "--started",
      "2026-01-15T11:50:00Z",
      "--finished",
      "now",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      id: expect.any(String),
      environment: "production",
      dateStarted: "2026-01-15T11:50:00.000Z",
      dateFinished: expect.any(String),
      name: "canary",
      url: null,
    });
    expect(writes()[0]).toMatchObject({
      method: "POST",
      path: "/api/0/organizations/acme/releases/api%401.5.0/deploys/",
      status: 201,
      body: { environment: "production", name: "canary", dateStarted: "2026-01-15T11:50:00.000Z" },
    });
    const list = await run(["release", "deploys", "api@1.5.0", "acme"]);
    expect(list.stdout).toStartWith("production\tcanary\t2026-01-15T11:50:00Z\t");
  });

  test("deploy: --env is required and validated; --dry-run sends nothing", async () => {
    const none = await run(["release", "deploy", "api@1.5.0", "acme"]);
    expect(none.exitCode).toBe(2);
    const bad = await run(["release", "deploy", "api@1.5.0", "acme", "--env", "prod/eu"]);
    expect(bad.exitCode).toBe(21);
    const dry = await run(["release", "deploy", "api@1.5.0", "acme", "--env", "staging", "--dry-run"]);
    expect(dry.stdout).toBe(
      'POST /api/0/organizations/acme/releases/api%401.5.0/deploys/\n{\n  "environment": "staging"\n}\n',
    );
    expect(api.requests).toEqual([]);
  });
});
