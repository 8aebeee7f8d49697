/**
 * Issue 31 §2: with only an org token (`sntrys_…`) in TRACKER_AUTH_TOKEN or SENTRY_AUTH_TOKEN, its
 * `org` claim is the organization when nothing else names one, at the lowest precedence, and the
 * provenance says "(from the org token)".
 */
import { describe, expect, test } from "bun:test";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("the org token's organization", () => {
  for (const variable of ["TRACKER_AUTH_TOKEN", "SENTRY_AUTH_TOKEN"]) {
    test(`${variable} alone: release finalize and deploy find the organization, and say where from`, async () => {
      const token = mintOrgToken(api.state, "acme", ["org:ci"]);
      const fin = await runCli(["release", "finalize", "web@1.4.0"], { api, env: { [variable]: token } });
      expect(fin.exitCode).toBe(0);
      expect(fin.stderr).toBe("Using organization acme (from the org token)\n");
      const deploy = await runCli(["release", "deploy", "web@1.4.0", "-e", "staging"], {
        api,
        env: { [variable]: token },
      });
      expect(deploy.exitCode).toBe(0);
      expect(api.requestsTo("/api/0/organizations/acme/releases/web%401.4.0/deploys/", "POST")).toHaveLength(
        1,
      );
    });
  }

  test("defaults show names the org token as the source; TRACKER_ORG (or any other layer) wins", async () => {
    const token = mintOrgToken(api.state, "acme", ["org:ci"]);
    const show = await runCli(["defaults"], { api, token });
    expect(show.stdout).toStartWith("Organization:  acme (from the org token)\n");
    const env = await runCli(["defaults"], { api, token, env: { TRACKER_ORG: "initech" } });
    expect(env.stdout).toStartWith("Organization:  initech (from TRACKER_ORG)\n");
  });

  test("a user token names no organization: still exit 22", async () => {
    const r = await runCli(["release", "finalize", "web@1.4.0"], {
      api,
      token: `sntryu_${"a1".repeat(32)}`,
    });
    expect(r.exitCode).toBe(22);
    expect(r.stderr).toContain("Organization is required");
  });
});
