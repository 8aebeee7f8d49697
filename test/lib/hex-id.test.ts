import { expect, test } from "bun:test";
import { compactHexId, parseHexId } from "../../src/lib/hex-id.ts";
import { parseEventId } from "../../src/commands/event/view.ts";
import { parseLogId } from "../../src/lib/log/options.ts";
import { parseTraceId } from "../../src/lib/trace/trace-id.ts";

const ID = "aaaa1111bbbb2222cccc3333dddd4444";

test.each([
  [ID, ID],
  [ID.toUpperCase(), ID],
  [`  ${ID}\n`, ID],
  ["aaaa1111-bbbb-2222-cccc-3333dddd4444", ID],
  ["AAAA1111-BBBB-2222-CCCC-3333DDDD4444", ID],
  ["aaaa-1111bbbb2222cccc3333dddd4444", undefined],
  ["aaaa1111bbbb2222cccc3333dddd444", undefined],
  [`${ID}0`, undefined],
  ["gaaa1111bbbb2222cccc3333dddd4444", undefined],
  ["", undefined],
])("compactHexId(%p) is %p", (raw, expected) => {
  expect(compactHexId(raw)).toBe(expected);
});

test("event, trace and log IDs are one grammar: the same inputs pass and fail for each", () => {
  for (const parse of [parseEventId, parseTraceId, parseLogId]) {
    expect(parse("aaaa1111-bbbb-2222-cccc-3333dddd4444")).toBe(ID);
    expect(parse(ID.toUpperCase())).toBe(ID);
    expect(() => parse("aaaa1111")).toThrow(/expected 32 hexadecimal characters/);
  }
});

test("the error names the kind and what was typed", () => {
  expect(() => parseHexId("xyz", "replay", "replay-id")).toThrow(
    "Invalid replay ID 'xyz': expected 32 hexadecimal characters (dashes of the UUID form allowed).",
  );
});
