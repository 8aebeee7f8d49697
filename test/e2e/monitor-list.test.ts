import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const MONITORS = "/api/0/organizations/acme/monitors/";

const api = useFakeApi();

describe("monitor list (real CLI)", () => {
  test("piped: one TSV row per monitor, worst environment status, ISO times; one request", async () => {
    const r = await runCli(["monitor", "list", "acme"], { api, token: USER_TOKEN });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "nightly-backup\tNightly backup\t0 3 * * *\tok\t2026-01-15T03:00:00Z\t2026-01-16T03:00:00Z",
        "sync-users\tSync users\tevery 10 minutes\terror\t2026-01-15T11:56:00Z\t2026-01-15T12:06:00Z",
        "weekly-report\tWeekly report\t0 8 * * 1\tdisabled (muted)\t-\t-",
        "",
      ].join("\n"),
    );
    // Besides the organization's region lookup (cached after the first run): one request.
    expect(api.requestsTo(MONITORS)).toHaveLength(1);
    expect(api.requests.filter((q) => q.path !== "/api/0/organizations/acme/")).toHaveLength(1);
    expect(api.requestsTo(MONITORS)[0]?.query.get("per_page")).toBe("100");
  });

  test("terminal: headers and relative times; --json: the API's monitors", async () => {
    const r = await runInProcess(["monitor", "list", "acme"], {
      env: {
        ...process.env,
        NO_COLOR: "1",
        TRACKER_PAGER: "",
        TRACKER_CONFIG_DIR: tempDir(),
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
      },
      cwd: tempDir(),
      isStdoutTTY: true,
      isStderrTTY: true,
      terminalWidth: 120,
      terminalHeight: 50,
      now: () => FAKE_NOW_MS,
    });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^SLUG +NAME +SCHEDULE +STATUS +LAST CHECK-IN +NEXT$/);
    expect(lines[2]).toMatch(/^sync-users +Sync users +every 10 minutes +error +4m ago +in 6m$/);
    const j = await runCli(["monitor", "list", "acme", "--json"], { api, token: USER_TOKEN });
    expect(j.exitCode).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc.hasMore).toBe(false);
    expect(doc.data.map((m: { slug: string }) => m.slug)).toEqual([
      "nightly-backup",
      "sync-users",
      "weekly-report",
    ]);
    expect(doc.data[1].environments[1]).toMatchObject({ name: "production", status: "error" });
  });

  test("no organization anywhere: exit 22 and no request", async () => {
    const r = await runCli(["monitor", "list"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(22);
    expect(r.stderr).toContain("Organization is required");
    expect(api.requests).toEqual([]);
  });
});
