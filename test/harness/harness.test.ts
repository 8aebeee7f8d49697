/**
 * The harness bites: a test that makes an unexpected request, or injects a fault no request
 * triggers, fails. Each case is a one-test file run by a child `bun test`.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/cli.ts";

const ROOT = resolve(import.meta.dir, "../..");
const HELPER = join(ROOT, "test/helpers/fake-api.ts");

async function runSuite(body: string): Promise<{ code: number; output: string }> {
  const dir = tempDir("tracker-harness-");
  const file = join(dir, "case.test.ts");
  writeFileSync(
    file,
    `import { expect, test } from "bun:test";\nimport { useFakeApi } from ${JSON.stringify(HELPER)};\nconst api = useFakeApi();\ntest("case", async () => {\n${body}\n});\n`,
  );
  const proc = Bun.spawn([process.execPath, "test", file], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, output: out + err };
}

test("a fault that never fires fails the test", async () => {
  const r = await runSuite(`api.inject({ path: "/api/0/organizations/", status: 500 });\nexpect(1).toBe(1);`);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("/api/0/organizations/");
}, 30_000);

test("a request no route answers fails the test", async () => {
  const r = await runSuite(`await fetch(api.url + "/api/0/no-such-endpoint/");\nexpect(1).toBe(1);`);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("no-such-endpoint");
}, 30_000);

test("control: a fault that fires and an expected request pass", async () => {
  const r = await runSuite(
    `api.inject({ path: "/api/0/organizations/", status: 500 });\nconst res = await fetch(api.url + "/api/0/organizations/");\nexpect(res.status).toBe(500);`,
  );
  expect(r.output).toContain("1 pass");
  expect(r.code).toBe(0);
}, 30_000);
