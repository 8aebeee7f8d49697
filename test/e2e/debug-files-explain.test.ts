import { describe, expect, test } from "bun:test";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { DEMO_NATIVE_EVENT, type FakeDif, difStore, seedDifDemo } from "../fake-api/routes/difs.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENT = "0123456789abcdef0123456789abcdef";
const DSYMS = "/api/0/projects/acme/mobile-app/files/dsyms/";
const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";
const C = "cccccccc-0000-4000-8000-000000000003";
const PG = "76d59355-8459-584e-8759-1d3468a7ae4e";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

function seedDif(debugId: string, cpuName: string, features: string[]): void {
  const d: FakeDif = {
    id: String(difStore(api.state).difs.size + 1),
    project: "mobile-app",
    checksum: debugId.replaceAll("-", "").padEnd(40, "0"),
    name: "libapp.so",
    debugId,
    codeId: null,
    cpuName,
    symbolType: "elf",
    features,
    size: 1000,
    state: "ok",
    polls: 0,
  };
  difStore(api.state).difs.set(`mobile-app:${d.checksum}`, d);
}

function frame(addr: string, pkg: string) {
  return { instructionAddr: addr, package: pkg, function: null, data: { symbolicator_status: "missing" } };
}

function seedEvent(extra: Record<string, unknown> = {}, images?: unknown[], frames?: unknown[]) {
  chunkStore(api.state).events.set(`mobile-app/${EVENT}`, {
    eventID: EVENT,
    platform: "native",
    dateReceived: "2026-01-15T13:00:00Z",
    tags: [{ key: "release", value: "1.0.0" }],
    entries: [
      {
        type: "exception",
        data: {
          values: [
            {
              stacktrace: {
                frames: frames ?? [
                  frame("0x3000", "/system/lib/libc.so"),
                  frame("0x2010", "/app/libgame.so"),
                  {
                    instructionAddr: "0x1010",
                    package: "/app/libapp.so",
                    function: "main",
                    data: { symbolicator_status: "symbolicated" },
                  },
                  frame("0x1020", "/app/libapp.so"),
                ],
              },
            },
          ],
        },
      },
      {
        type: "debugmeta",
        data: {
          images: images ?? [
            {
              type: "elf",
              code_file: "/app/libapp.so",
              debug_id: A,
              arch: "x86_64",
              image_addr: "0x1000",
              image_size: 4096,
            },
            {
              type: "elf",
              code_file: "/app/libgame.so",
              debug_id: B,
              arch: "x86_64",
              image_addr: "0x2000",
              image_size: 4096,
            },
            {
              type: "elf",
              code_file: "/system/lib/libc.so",
              debug_id: C,
              arch: "x86_64",
              image_addr: "0x3000",
              image_size: 4096,
            },
          ],
        },
      },
    ],
    errors: [
      {
        type: "native_missing_dsym",
        message: "A required debug information file was missing.",
        data: { image_path: "/app/libapp.so", image_uuid: A },
      },
    ],
    ...extra,
  });
}

describe("debug-files explain (real CLI)", () => {
  test("per image: missing on the service, only unwind info, another architecture; the fix names the first", async () => {
    seedEvent();
    seedDif(B, "x86_64", ["unwind"]);
    seedDif(C, "arm64", ["symtab", "debug", "unwind"]);
    const r = await runCli(["debug-files", "explain", EVENT, "acme/mobile-app", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.images.map((i: { debugId: string; cause: string }) => [i.debugId, i.cause])).toEqual([
      [A, "missing_file"],
      [B, "no_debug_info"],
      [C, "wrong_arch"],
    ]);
    expect(doc.images[2].detail).toBe("the uploaded file is for arm64, the event's image is x86_64");
    expect(
      doc.frames.map((f: { instructionAddr: string; cause: string }) => `${f.instructionAddr}:${f.cause}`),
    ).toEqual(["0x1020:missing_file", "0x2010:no_debug_info", "0x3000:wrong_arch"]);
    expect(doc.errors).toEqual([
      { type: "native_missing_dsym", detail: "A required debug information file was missing." },
    ]);
    expect(doc.fix).toBe(
      `tracker debug-files upload <build-output-dir> acme/mobile-app --id ${A} --require-all --wait`,
    );
    expect(api.requestsTo(DSYMS).map((q) => q.query.get("debug_id"))).toEqual([A, B, C]);
    const human = await runCli(["debug-files", "explain", EVENT, "acme/mobile-app"], {
      api,
      token: USER_TOKEN,
    });
    expect(human.stdout).toContain(
      `  /app/libgame.so  ${B}  x86_64\n    no_debug_info: the uploaded file has only unwind: no symbols or debug information\n`,
    );
    expect(human.stderr).toContain(
      `Fix: tracker debug-files upload <build-output-dir> acme/mobile-app --id ${A}`,
    );
  });

  test("a ProGuard mapping missing for the release: the fix quotes the release", async () => {
    seedEvent(
      { platform: "java", tags: [{ key: "release", value: "it's 1.0" }], errors: [] },
      [{ type: "proguard", uuid: PG }],
      [{ module: "a.b", function: "a", instructionAddr: null }],
    );
    const r = await runCli(["debug-files", "explain", EVENT, "acme/mobile-app", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.images).toMatchObject([{ debugId: PG, type: "proguard", cause: "proguard_missing" }]);
    expect(doc.fix).toBe("tracker proguard upload <mapping.txt> acme/mobile-app --release 'it'\\''s 1.0'");
  });

  test("images with usable files have no cause; x86 is not x86_64", async () => {
    seedEvent({ errors: [] });
    seedDif(A, "x86_64", ["symtab", "debug", "unwind"]);
    seedDif(B, "x86_64", ["symtab", "debug", "unwind"]);
    seedDif(C, "x86", ["symtab", "debug"]);
    const r = await runCli(["debug-files", "explain", EVENT, "acme/mobile-app", "--json"], {
      api,
      token: USER_TOKEN,
    });
    const doc = JSON.parse(r.stdout);
    expect(doc.images.map((i: { cause: string | null }) => i.cause)).toEqual([null, null, "wrong_arch"]);
    expect(doc.fix).toBe(
      `tracker debug-files upload <build-output-dir> acme/mobile-app --id ${C} --require-all --wait`,
    );
    difStore(api.state).difs.clear();
  });

  test("the sandbox's demo event explains itself", async () => {
    seedDifDemo(api.state);
    const r = await runCli(["debug-files", "explain", DEMO_NATIVE_EVENT, "acme/mobile-app", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).images.map((i: { cause: string }) => i.cause)).toEqual([
      "missing_file",
      "no_debug_info",
    ]);
  });
});
