/** Issue 30: where inject puts its snippet, so a directive prologue (behind comments) stays in force. */
import { describe, expect, test } from "bun:test";
import { runInNewContext } from "node:vm";
import { injectJs } from "../../../src/lib/sourcemap/inject-text.ts";
import { directivePrologue } from "../../../src/lib/sourcemap/prologue.ts";

const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";
const STRICT_PROBE = "void 0, (function () { return this === undefined; })();\n";

/** The first characters of each line of the injected text. */
const heads = (js: string) => js.split("\n").map((l) => l.slice(0, 14));

describe("directivePrologue", () => {
  test("directives behind line and block comments; a string that is an expression is none", () => {
    expect(directivePrologue('// a\n/* b\n c */ "use strict";\nx()')).toEqual({
      directives: ['"use strict"'],
      lineEnd: 30,
    });
    expect(directivePrologue("'use client'\n'use strict'\nx()").directives).toEqual([
      "'use client'",
      "'use strict'",
    ]);
    expect(directivePrologue('"use strict" + x;').directives).toEqual([]);
    expect(directivePrologue('"use strict"\n(function(){})()').directives).toEqual([]);
    expect(directivePrologue("/* never closed").directives).toEqual([]);
    expect(directivePrologue('"use strict";var a=1').lineEnd).toBeUndefined();
  });
});

describe("injectJs keeps strict mode", () => {
  for (const [name, source, expected] of [
    ["banner, then the directive on its own line", `/*! MIT */\n"use strict";\n${STRICT_PROBE}`, 2],
    ["shebang, line comment, directive", `#!/usr/bin/env node\n// built\n'use strict'\n${STRICT_PROBE}`, 3],
    ["directive sharing its line with code: repeated in front", `/*! MIT */ "use strict";${STRICT_PROBE}`, 0],
    [
      "directive and a trailing comment, CRLF",
      `"use strict"; // x\r\n${STRICT_PROBE.replace("\n", "\r\n")}`,
      1,
    ],
  ] as const) {
    test(name, () => {
      expect(runInNewContext(source)).toBe(true);
      const { js, insertedAt } = injectJs(source, ID);
      expect(runInNewContext(js)).toBe(true);
      expect(insertedAt).toBe(expected);
      expect(js.split("\n")[insertedAt]).toContain(`g._sentryDebugIds[s]="${ID}"`);
      expect(js.endsWith(`//# debugId=${ID}${source.includes("\r\n") ? "\r\n" : "\n"}`)).toBe(true);
    });
  }

  test("no directive: the snippet is the first line, the code stays sloppy", () => {
    const { js, insertedAt } = injectJs(`/*! MIT */\n${STRICT_PROBE}`, ID);
    expect(insertedAt).toBe(0);
    expect(heads(js)[1]).toBe("/*! MIT */");
    expect(runInNewContext(js)).toBe(false);
  });

  test("a file that is only a directive gets the snippet on a new line", () => {
    const { js, insertedAt } = injectJs('"use strict";', ID);
    expect(insertedAt).toBe(1);
    expect(js.split("\n").length).toBe(4);
    expect(js.split("\n")[2]).toBe(`//# debugId=${ID}`);
  });
});
