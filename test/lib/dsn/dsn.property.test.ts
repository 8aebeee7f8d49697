import { describe, expect, test } from "bun:test";
import { findDsnsInText, parseDsn } from "../../../src/lib/dsn/parse.ts";

const SEED = 0x5eed7;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)] as T;
}

function hex(r: () => number, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += "0123456789abcdef"[Math.floor(r() * 16)];
  return out;
}

describe(`DSN parsing properties (seed ${SEED})`, () => {
  test("every generated DSN parses, round-trips through raw, and is found inside arbitrary text", () => {
    const r = rng(SEED);
    for (let i = 0; i < 2000; i++) {
      const key = hex(r, 32);
      const projectId = String(1 + Math.floor(r() * 1e7));
      const hosted = r() < 0.5;
      const orgId = String(1 + Math.floor(r() * 1e6));
      const region = pick(r, ["", ".us", ".de"]);
      const host = hosted
        ? `o${orgId}.ingest${region}.sentry.io`
        : `${pick(r, ["sentry", "errors", "track"])}.${pick(r, ["example.com", "internal", "corp.net"])}${r() < 0.5 ? `:${1 + Math.floor(r() * 65534)}` : ""}`;
      const prefix = !hosted && r() < 0.3 ? `/${pick(r, ["sentry", "api/x"])}` : "";
      const secret = r() < 0.2 ? `:${hex(r, 32)}` : "";
      const text = `${pick(r, ["https", "http"])}://${key}${secret}@${host}${prefix}/${projectId}`;
      const d = parseDsn(text);
      try {
        expect(d).toBeDefined();
        expect(d?.publicKey).toBe(key);
        expect(d?.projectId).toBe(projectId);
        expect(d?.orgId).toBe(hosted ? orgId : undefined);
        expect(d?.raw).not.toContain(secret || "\u0000");
        expect(parseDsn(d?.raw as string)).toEqual(d);
        const wrapped = `${pick(r, ['dsn: "', "dsn='", "SENTRY_DSN=", "Dsn: `"])}${text}${pick(r, ['"', "'", "", "`)"])}\n`;
        expect(findDsnsInText(wrapped).map((x) => x.raw)).toEqual([d?.raw as string]);
      } catch (err) {
        throw new Error(`seed ${SEED}, case ${i}: ${text}\n${(err as Error).message}`);
      }
    }
  });

  test("mutated DSNs never throw, and parse only to well-formed values", () => {
    const r = rng(SEED + 1);
    const chars = "abcdef0123456789:/@.-_ xyzO";
    for (let i = 0; i < 3000; i++) {
      let text = `https://${hex(r, 32)}@o${Math.floor(r() * 999)}.ingest.sentry.io/${Math.floor(r() * 999)}`;
      const edits = 1 + Math.floor(r() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(r() * text.length);
        text = text.slice(0, at) + pick(r, chars.split("")) + text.slice(at + (r() < 0.5 ? 1 : 0));
      }
      const d = parseDsn(text);
      if (d) {
        expect(d.publicKey).toMatch(/^[0-9a-f]{32}$/);
        expect(d.projectId).toMatch(/^\d+$/);
      }
    }
  });
});
