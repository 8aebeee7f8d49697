import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findCycles, srcGraph } from "../../script/check-cycles.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("tracker-cycles-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = join(dir, String(Math.random()).slice(2));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

test("a cycle through a dynamic import is found; type-only imports are not edges", () => {
  const root = tree({
    "a.ts": 'import { b } from "./b.ts";\nimport type { C } from "./c.ts";\n',
    "b.ts": 'export async function b() { return (await import("./a.ts")).x; }\n',
    "c.ts": 'import { a } from "./a.ts";\nexport type C = 1;\n',
  });
  const cycles = findCycles(srcGraph(root)).map((c) => c.map((f) => f.slice(root.length + 1)));
  expect(cycles).toEqual([["a.ts", "b.ts"]]);
});

test("imports named only in comments are ignored; re-exports count", () => {
  const root = tree({
    "a.ts": '// import { b } from "./b.ts";\nexport { x } from "./c.ts";\n',
    "b.ts": 'import "./a.ts";\n',
    "c.ts": 'export * from "./a.ts";\n',
  });
  const cycles = findCycles(srcGraph(root)).map((c) => c.map((f) => f.slice(root.length + 1)));
  expect(cycles).toEqual([["a.ts", "c.ts"]]);
});

test("src/ has no import cycles", () => {
  expect(findCycles(srcGraph())).toEqual([]);
});
