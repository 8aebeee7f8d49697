/**
 * DSN detection in a generated monorepo of about 20,000 files with 5 DSNs: cold (`--fresh`: full
 * scan and API lookup every run), warm (scan cache verified, DSN cache hit) and a baseline with an
 * explicit target, so "warm adds" = warm − baseline.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchCase } from "./types.ts";

/** Packages of the generated monorepo; each holds one DSN. */
export const PACKAGES = 5;
/** Scanned source files per package. */
export const SOURCE_FILES_PER_PACKAGE = 2_400;
/** Files per package in directories the scanner skips (node_modules, dist). */
export const SKIPPED_FILES_PER_PACKAGE = 1_600;

// Seeded projects of the fake API whose hosted DSNs (org id in the host) the packages use.
const PROJECTS = [
  { orgId: "100001", id: "300001" },
  { orgId: "100001", id: "300002" },
  { orgId: "100001", id: "300003" },
  { orgId: "100001", id: "300004" },
  { orgId: "100002", id: "300012" },
];

function publicKeyFor(projectId: string): string {
  return Bun.hash(`key-${projectId}`).toString(16).padStart(16, "0").repeat(2).slice(0, 32);
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const BODY = `export function handler(input: Record<string, unknown>) {\n  const items = Object.entries(input).map(([k, v]) => \`\${k}=\${String(v)}\`);\n  return items.join("&");\n}\n`;

/** Writes the tree under `dir` and returns the working directory to run in (package 0). */
export function generateDsnTree(dir: string): { root: string; cwd: string; files: number } {
  const root = join(dir, "mono");
  let files = 0;
  write(join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  write(join(root, "package.json"), '{"private": true, "workspaces": ["packages/*"]}\n');
  files += 2;
  for (let p = 0; p < PACKAGES; p++) {
    const pkg = join(root, "packages", `pkg-${p}`);
    const proj = PROJECTS[p] as { orgId: string; id: string };
    const dsn = `https://${publicKeyFor(proj.id)}@o${proj.orgId}.ingest.us.sentry.io/${proj.id}`;
    write(join(pkg, "package.json"), `{"name": "pkg-${p}"}\n`);
    files++;
    for (let i = 0; i < SOURCE_FILES_PER_PACKAGE; i++) {
      const ext = [".ts", ".js", ".py", ".tsx"][i % 4];
      // A few files carry '@' (decorators, e-mail addresses) so they are decoded and matched.
      const extra = i % 10 === 0 ? `// maintainer: dev${i}@example.com\n@decorator()\n` : "";
      const text =
        i === 0 ? `import * as Sentry from "@sentry/node";\nSentry.init({ dsn: "${dsn}" });\n` : extra + BODY;
      write(join(pkg, "src", `m${i % 20}`, `d${i % 7}`, `file${i}${i === 0 ? ".ts" : ext}`), text);
      files++;
    }
    for (let i = 0; i < SKIPPED_FILES_PER_PACKAGE; i++) {
      const where = i % 8 === 0 ? "dist" : `node_modules/dep${i % 40}`;
      write(join(pkg, where, `f${i}.js`), `module.exports = "${dsn}";\n`);
      files++;
    }
  }
  return { root, cwd: join(root, "packages", "pkg-0"), files };
}

/** The tree lives in the case's config dir, which the bench removes afterwards. */
async function setupTree({ configDir }: { configDir: string }): Promise<{ cwd: string }> {
  const dir = join(configDir, "tree");
  mkdirSync(dir);
  return { cwd: generateDsnTree(dir).cwd };
}

/** Bench cases of DSN detection. */
export const cases: BenchCase[] = [
  {
    name: "DSN detection cold (20k files, --fresh)",
    args: ["project", "view", "--fresh", "--json"],
    needsApi: true,
    setup: setupTree,
  },
  {
    name: "DSN detection warm (20k files)",
    args: ["project", "view", "--json"],
    needsApi: true,
    setup: setupTree,
  },
  {
    name: "DSN detection baseline (explicit target)",
    args: ["project", "view", "acme/web", "--json"],
    needsApi: true,
    setup: setupTree,
  },
];
