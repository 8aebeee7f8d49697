import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkArchitecture, checkFolderNames, checkRules } from "../../script/check-rules.ts";
import { tempDir } from "../helpers/cli.ts";

function tree(files: Record<string, string>): string {
  const root = tempDir("tracker-rules-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

test("the repository keeps its rules", () => {
  expect(checkRules()).toEqual([]);
});

test("a file over 300 lines without a reason, and a table's SQL outside its owner, are reported", () => {
  const long = Array.from({ length: 301 }, (_, i) => `const a${i} = ${i};`).join("\n");
  const root = tree({
    "src/lib/big.ts": long,
    "src/lib/ok-big.ts": `// Over 300 lines: generated table of names\n${long}`,
    "src/lib/sneaky.ts": 'db.run("DELETE FROM cursors WHERE 1");\n',
    "src/lib/db/cursors.ts": 'db.run("DELETE FROM cursors WHERE 1");\n',
    "ARCHITECTURE.md": "`lib/big.ts` `lib/ok-big.ts` `lib/sneaky.ts` `lib/db/`\n",
  });
  expect(checkRules(root)).toEqual([
    "src/lib/big.ts: 301 lines (more than 300; split it by concern or give the reason at its top)",
    "src/lib/sneaky.ts: SQL on table 'cursors' outside its owner src/lib/db/cursors.ts",
  ]);
});

test("ARCHITECTURE.md must name every src/lib entry, and every path it names must exist", () => {
  const root = tree({
    "src/lib/named.ts": "export {};\n",
    "src/lib/unnamed.ts": "export {};\n",
    "src/lib/family/one.ts": "export {};\n",
    "ARCHITECTURE.md": "`lib/named.ts`, `lib/family/` and `lib/gone.ts`; `lib/<noun>/` is a pattern.\n",
  });
  expect(checkArchitecture(root)).toEqual([
    "ARCHITECTURE.md does not name src/lib/unnamed.ts",
    "ARCHITECTURE.md names lib/gone.ts, which does not exist",
  ]);
});

test("a src/lib folder is a command word or a listed shared concern, never a command word's plural", () => {
  const root = tree({
    "src/commands/log/list.ts": "export {};\n",
    "src/commands/debug-files/upload.ts": "export {};\n",
    "src/lib/log/query.ts": "export {};\n",
    "src/lib/logs/follow.ts": "export {};\n",
    "src/lib/debug-files/elf.ts": "export {};\n",
    "src/lib/http/client.ts": "export {};\n",
    "src/lib/misc/util.ts": "export {};\n",
    "src/lib/Bad_Name/x.ts": "export {};\n",
  });
  expect(checkFolderNames(root).sort()).toEqual([
    "src/lib/Bad_Name/: not kebab-case",
    "src/lib/logs/: the plural of the command word 'log'; name it src/lib/log/",
    "src/lib/misc/: neither a command word nor a listed shared concern (script/check-rules.ts CONCERN_FOLDERS)",
  ]);
});
