/**
 * tracker run with sentry-cli's command line (`tracker sentry-cli …`, as the `sentry-cli` link
 * does): version line, help topic, errors that name tracker's closest command, --quiet,
 * --allow-failure, custom headers (only to the service's host), login/info/repos forms, and
 * sentry-cli spellings typed to tracker getting tracker's form.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { FORMS } from "../../src/lib/sentry-cli/forms.ts";

const api = useFakeApi({
  afterReset: (a) => {
    resetMonitorStore(a.state);
    a.state.store.delete("releases");
  },
});
const sc = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(["sentry-cli", ...args], opts);
const ci = () => ({ api, token: mintOrgToken(api.state, "acme", ["org:ci"]) });

describe("sentry-cli's command line", () => {
  test("--version and -V print sentry-cli's shape (what version-sniffing plugins parse)", async () => {
    for (const flag of ["--version", "-V"]) {
      expect(await sc([flag])).toEqual({ exitCode: 0, stdout: "sentry-cli 2.58.6\n", stderr: "" });
    }
  });

  test("no command, --help and `help` print the topic; tracker help sentry-cli lists every form of the table", async () => {
    const topic = await runCli(["help", "sentry-cli"]);
    expect(topic.exitCode).toBe(0);
    expect(topic.stdout).toStartWith("SENTRY-CLI COMMAND LINES\n");
    for (const form of FORMS) expect(topic.stdout).toContain(`  sentry-cli ${form.words}\n`);
    expect(topic.stdout).toContain("--allow-failure");
    for (const args of [[], ["--help"], ["help"]]) expect((await sc(args)).stdout).toBe(topic.stdout);
  });

  test("<form> --help is the help of tracker's command", async () => {
    const r = await sc(["releases", "new", "--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("tracker release create");
  });

  test("a form without counterpart: usage error naming the closest tracker command, nothing sent", async () => {
    const r = await sc(["react-native", "xcode"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: sentry-cli react-native has no tracker counterpart. Closest: tracker sourcemap inject, then tracker sourcemap upload --release <v>\nSee: tracker help sentry-cli\n",
    );
    expect(api.requests).toEqual([]);
  });

  test("a flag without counterpart names tracker's way; an unknown flag names tracker's form", async () => {
    const a = await sc(["sourcemaps", "upload", "--bundle", "main.jsbundle", "dist"]);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain(
      "--bundle: no tracker counterpart. Closest: React Native RAM bundles have no tracker command",
    );
    const b = await sc(["releases", "new", "1.0", "--bogus"]);
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain(
      "tracker has no counterpart of --bogus. tracker's form is: tracker release create",
    );
  });

  test("a typo of a command: did you mean; a missing word: the forms it could be", async () => {
    const a = await sc(["sendevent", "-m", "x"]);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toStartWith("Error: Unknown sentry-cli command 'sendevent'. Did you mean send-event?");
    const b = await sc(["releases", "deploys", "1.0"]);
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain(
      "sentry-cli releases deploys <version> new, sentry-cli releases deploys <version> list",
    );
  });

  test("--quiet: nothing on stdout, the release still created", async () => {
    const r = await sc(["--quiet", "releases", "-o", "acme", "-p", "web", "new", "q@1.0"], ci());
    expect(r).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(api.requestsTo("/api/0/organizations/acme/releases/", "POST")).toHaveLength(1);
  });

  test("--allow-failure: an API failure is a warning and exit 0; a usage error still fails", async () => {
    const a = await sc(["--allow-failure", "releases", "-o", "acme", "finalize", "nope@0"], ci());
    expect(a.exitCode).toBe(0);
    expect(a.stderr).toContain("Error: ");
    expect(a.stderr).toEndWith("Exiting with 0 exit code.\n");
    const b = await sc(["--allow-failure", "releases", "new", "1.0", "--bogus"], ci());
    expect(b.exitCode).toBe(2);
  });

  test("--header and SENTRY_CUSTOM_HEADERS reach every API request; bad lines and reserved names are refused", async () => {
    const r = await sc(["--header", "X-Proxy-Id: abc", "organizations", "list"], {
      api,
      token: USER_TOKEN,
      env: { SENTRY_CUSTOM_HEADERS: "X-Team: web" },
    });
    expect(r.exitCode).toBe(0);
    expect(api.requests.length).toBeGreaterThan(0);
    for (const q of api.requests)
      expect([q.headers["x-proxy-id"], q.headers["x-team"]]).toEqual(["abc", "web"]);
    const bad = await runCli(["org", "list"], {
      api,
      token: USER_TOKEN,
      env: { SENTRY_CUSTOM_HEADERS: "no colon" },
    });
    expect(bad.exitCode).toBe(20);
    expect(bad.stderr).toStartWith(
      "Error: SENTRY_CUSTOM_HEADERS (or --header) has a line that is not 'Name: value'.",
    );
    const auth = await sc(["--header", "Authorization: Bearer x", "organizations", "list"], {
      api,
      token: USER_TOKEN,
    });
    expect(auth.exitCode).toBe(20);
    expect(auth.stderr).toContain("may not set Authorization");
  });

  test("custom headers go with a check-in to the service's host, never to another host's DSN", async () => {
    const p = api.state.projects.find((x) => x.id === "300021") as never;
    const dsn = dsnFor(api.state, p);
    const env = { SENTRY_DSN: dsn, SENTRY_CUSTOM_HEADERS: "X-Proxy-Id: abc" };
    // The service is elsewhere (localhost is another host name than the DSN's 127.0.0.1).
    const away = await sc(["send-event", "-m", "hi"], {
      env: { ...env, SENTRY_URL: api.url.replace("127.0.0.1", "localhost") },
    });
    expect(away.exitCode).toBe(0);
    const here = await sc(["send-event", "-m", "hi"], { api, env });
    expect(here.exitCode).toBe(0);
    const sent = api.requestsTo("/api/300021/envelope/", "POST").map((q) => q.headers["x-proxy-id"]);
    expect(sent).toEqual([undefined, "abc"]);
  });

  test("--auth-token with login stores a login (auth login --token), printing no token", async () => {
    const configDir = tempDir();
    const r = await sc(["--auth-token", USER_TOKEN, "login"], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(USER_TOKEN);
    const status = await runCli(["auth", "status", "--json"], { api, configDir });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ authenticated: true });
  });

  test("info --config-status-json prints sentry-cli's document: config, auth, have_dsn", async () => {
    const r = await sc(["info", "--config-status-json", "-o", "acme"], {
      api,
      token: USER_TOKEN,
      env: { SENTRY_PROJECT: "web" },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      config: { org: "acme", project: "web", url: api.url },
      auth: { type: "token", successful: true },
      have_dsn: false,
    });
    const none = await sc(["info", "--config-status-json"], { api });
    expect(JSON.parse(none.stdout)).toMatchObject({
      config: { org: null },
      auth: { type: null, successful: false },
    });
  });

  test("repos list -o: the organization's repositories (tracker api)", async () => {
    const r = await sc(["repos", "list", "-o", "acme"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { name: string }[]).map((x) => x.name)).toEqual(["acme/web", "acme/api"]);
  });
});

describe("sentry-cli spellings typed to tracker", () => {
  test.each([
    [["login"], "'tracker login' is sentry-cli's spelling. Did you mean 'tracker auth login'?"],
    [["releases", "new", "1.0"], "Did you mean 'tracker release create <version> [-p <project>]...'?"],
    [["send-event", "-m", "x"], "Did you mean 'tracker event send -m <text> --env production'?"],
    [
      ["monitors", "run", "x", "--", "true"],
      "Did you mean 'tracker monitor run <slug> --env production -- <command>'?",
    ],
    [["organizations", "list"], "Did you mean 'tracker org list'?"],
  ])("tracker %p: a usage error with tracker's form, nothing sent", async (args, hint) => {
    const r = await runCli(args, { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(hint);
    expect(r.stderr).toContain(
      `'tracker sentry-cli ${args
        .slice(0, 2)
        .filter((w) => !w.startsWith("-") && w !== "1.0" && w !== "x")
        .join(" ")} …'`,
    );
    expect(api.requests).toEqual([]);
  });

  test("tracker's own shortcuts still work (releases = release list)", async () => {
    const r = await runCli(["releases", "acme/web", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data.length).toBeGreaterThan(0);
  });
});

describe("send-envelope (event send-envelope)", () => {
  test("the file's bytes go to the DSN's project as they are; its event_id is printed", async () => {
    const p = api.state.projects.find((x) => x.id === "300021") as never;
    const dir = tempDir();
    const file = join(dir, "crash.envelope");
    const id = "9ec79c33ec9942ab8353589fcb2e04dc";
    const text = `{"event_id":"${id}"}\n{"type":"event"}\n{"event_id":"${id}","message":"from a file","level":"fatal"}\n`;
    writeFileSync(file, text);
    const r = await sc(["send-envelope", file], { api, env: { SENTRY_DSN: dsnFor(api.state, p) } });
    expect(r).toEqual({ exitCode: 0, stdout: `${id}\n`, stderr: "" });
    const [q] = api.requestsTo("/api/300021/envelope/", "POST");
    expect(q?.body).toBe(text);
    expect(q?.headers["content-type"]).toBe("application/x-sentry-envelope");
  });

  test("not an envelope, or not a regular file (a FIFO is not waited on): exit 21, nothing sent", async () => {
    const p = api.state.projects.find((x) => x.id === "300021") as never;
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    Bun.spawnSync(["mkfifo", join(dir, "pipe")]);
    for (const name of ["notes.txt", "pipe"]) {
      const r = await runCli(["event", "send-envelope", join(dir, name)], {
        api,
        env: { SENTRY_DSN: dsnFor(api.state, p) },
      });
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toContain(name === "pipe" ? "not a regular file" : "not an envelope");
    }
    expect(api.requests).toEqual([]);
  });
});

describe("--allow-failure and a monitored job", () => {
  test("the job's own exit code passes through; it is not a failed Sentry call", async () => {
    const p = api.state.projects.find((x) => x.id === "300021") as never;
    const r = await sc(["--allow-failure", "monitors", "run", "nightly", "--", "sh", "-c", "exit 3"], {
      api,
      subprocess: true,
      env: { SENTRY_DSN: dsnFor(api.state, p) },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).not.toContain("Exiting with 0");
  });
});
