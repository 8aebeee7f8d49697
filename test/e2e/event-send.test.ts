import { describe, expect, test } from "bun:test";
import { appendFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorStore, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

/** The part of a received event the breadcrumb assertions read. */
type ReceivedEvent = Record<string, unknown> & { breadcrumbs: { values: { message: string }[] } };

const api = useFakeApi({ afterReset: (a) => resetMonitorStore(a.state) });
const ENVELOPE = "/api/300021/envelope/";

/** A working directory whose .env names the DSN of initech/tps-reports (its host is the fake). */
function projectDir(variable = "SENTRY_DSN"): string {
  const p = api.state.projects.find((x) => x.id === "300021");
  if (!p) throw new Error("seed changed");
  const dsn = dsnFor(api.state, p);
  expect(new URL(dsn).host).toBe(new URL(api.url).host);
  const dir = tempDir();
  writeFileSync(join(dir, ".env"), `${variable}=${dsn}\n`);
  return dir;
}

describe("event send (real CLI)", () => {
  test("detected DSN (.env): tags, extra, user, fingerprint, release, env and log breadcrumbs arrive", async () => {
    const cwd = projectDir();
    const log = join(cwd, "job.log");
    writeFileSync(log, Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join("\n"));
    const r = await runCli(
      [
        "event",
        "send",
        "-m",
        "Backup failed",
        "--level",
        "fatal",
        "-t",
        "host:db1",
        "--tag",
        "url:https://x.example/a:b",
        "-e",
        "build:1234",
        "--user",
        "id:42",
        "--user",
        "email:ops@example.com",
        "--fingerprint",
        "backup",
        "--fingerprint",
        "{{ default }}",
        "--release",
        "1.2.0",
        "--env",
        "production",
        "--logfile",
        log,
      ],
      { api, cwd },
    );
    // Where it went: the DSN's host and project id, and the file that chose the DSN.
    expect(r.stderr).toBe(`Sent to ${new URL(api.url).host} (project 300021); DSN from .env.\n`);
    expect(r.exitCode).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const [q] = api.requestsTo(ENVELOPE, "POST");
    expect(q?.headers["x-sentry-auth"]).toStartWith("Sentry sentry_key=");
    expect(q?.headers.authorization).toBeUndefined();
    const [env] = monitorStore(api.state).envelopes;
    expect(env?.header.event_id).toBe(id);
    expect(env?.items).toHaveLength(1);
    expect(env?.items[0]?.header.type).toBe("event");
    const event = env?.items[0]?.payload as ReceivedEvent;
    expect(event).toMatchObject({
      event_id: id,
      level: "fatal",
      logentry: { formatted: "Backup failed" },
      tags: { host: "db1", url: "https://x.example/a:b" },
      extra: { build: "1234" },
      user: { id: "42", email: "ops@example.com" },
      fingerprint: ["backup", "{{ default }}"],
      release: "1.2.0",
      environment: "production",
    });
    const crumbs = event.breadcrumbs.values.map((b) => b.message);
    expect(crumbs).toHaveLength(100);
    expect(crumbs[0]).toBe("line 51");
    expect(crumbs[99]).toBe("line 150");
  });

  test("--json: eventId and the event's URL when the org is known; null without", async () => {
    const cwd = projectDir("TRACKER_DSN");
    const r = await runCli(["event", "send", "-m", "hi", "--json"], {
      api,
      cwd,
      env: { TRACKER_ORG: "initech", TRACKER_PROJECT: "tps-reports" },
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: `${api.url}/organizations/initech/projects/tps-reports/events/${doc.eventId}/`,
    });
    const bare = await runCli(["event", "send", "-m", "hi", "--json"], { api, cwd });
    expect(JSON.parse(bare.stdout)).toEqual({ eventId: expect.any(String), url: null });
  });

  test("--logfile of 1 GiB (sparse): only the tail is read", async () => {
    const cwd = projectDir();
    const log = join(cwd, "huge.log");
    writeFileSync(log, "");
    truncateSync(log, 1024 ** 3);
    appendFileSync(log, `\n${Array.from({ length: 120 }, (_, i) => `tail ${i}`).join("\n")}\n`);
    const started = performance.now();
    const r = await runCli(["event", "send", "-m", "big", "--logfile", log], { api, cwd });
    expect(r.exitCode).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    const event = monitorStore(api.state).envelopes[0]?.items[0]?.payload as ReceivedEvent;
    expect(event.breadcrumbs.values.at(-1)?.message).toBe("tail 119");
    expect(event.breadcrumbs.values).toHaveLength(100);
  });

  test("no DSN anywhere: exit 22 naming TRACKER_DSN, .env files and source code; nothing sent", async () => {
    const r = await runCli(["event", "send", "-m", "hi"], { api });
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: A DSN is required.");
    for (const where of ["TRACKER_DSN", ".env", "source code"]) expect(r.stderr).toContain(where);
    expect(api.requests).toEqual([]);
  });

  test("bad flag values: exit 21, nothing sent", async () => {
    const cwd = projectDir();
    for (const args of [
      ["-t", "novalue"],
      ["--user", "name:x"],
      ["--level", "loud"],
      ["--logfile", join(cwd, "missing.log")],
    ]) {
      const r = await runCli(["event", "send", "-m", "x", ...args], { api, cwd });
      expect(r.exitCode).toBe(21);
    }
    expect(api.requests).toEqual([]);
  });
});
