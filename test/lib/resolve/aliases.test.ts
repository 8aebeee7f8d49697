import { describe, expect, test } from "bun:test";
import { lookupAlias, saveAliases } from "../../../src/lib/db/aliases.ts";
import { commonSlugPrefix, computeAliases, extendAliases } from "../../../src/lib/resolve/aliases.ts";
import { createTestContext } from "../../helpers/context.ts";

const t = (pairs: string[]) =>
  pairs.map((p) => {
    const [org, project] = p.split("/") as [string, string];
    return { org, project };
  });

describe("computeAliases", () => {
  test("shortest unique prefix", () => {
    expect(computeAliases(t(["acme/web", "acme/api", "acme/worker"]))).toEqual(["we", "a", "wo"]);
  });

  test("common prefix is stripped at a separator", () => {
    expect(computeAliases(t(["acme/frontend-web", "acme/frontend-api", "acme/frontend-admin"]))).toEqual([
      "w",
      "ap",
      "ad",
    ]);
  });

  test("a common prefix without separator is not cut mid-word", () => {
    expect(commonSlugPrefix(["web", "worker"])).toBe("");
    expect(commonSlugPrefix(["svc-a", "svc-b"])).toBe("svc-");
    expect(commonSlugPrefix(["svc-", "svc-b"])).toBe("");
  });

  test("same slug in two orgs is org-prefixed", () => {
    expect(computeAliases(t(["acme/web", "globex/web", "acme/api"]))).toEqual(["a-w", "g-w", "a"]);
  });

  test("a slug that is a prefix of another keeps its full name and never ends in a separator", () => {
    expect(computeAliases(t(["acme/web", "acme/web-admin"]))).toEqual(["web", "web-a"]);
  });

  test("upper-case slugs give lower-case aliases", () => {
    expect(computeAliases(t(["Acme/Web", "Acme/Api"]))).toEqual(["w", "a"]);
  });

  test("clashes between org-prefixed and plain aliases are resolved", () => {
    const aliases = computeAliases(t(["acme/web", "globex/web", "acme/a-w", "acme/a-x"]));
    expect(new Set(aliases).size).toBe(4);
  });
});

describe("saveAliases / lookupAlias", () => {
  test("stores the latest set and looks up case-insensitively", () => {
    const { ctx } = createTestContext();
    saveAliases(ctx, [{ alias: "w", org: "acme", project: "web" }]);
    saveAliases(ctx, [
      { alias: "a", org: "acme", project: "api" },
      { alias: "g-w", org: "globex", project: "web" },
    ]);
    expect(lookupAlias(ctx, "w")).toBeUndefined();
    expect(lookupAlias(ctx, "G-W")).toEqual({ alias: "g-w", org: "globex", project: "web" });
  });
});

describe("extendAliases", () => {
  test("keeps every alias given, and gives new projects aliases no one has", () => {
    const first = extendAliases([], [{ org: "acme", project: "web" }]);
    expect(first).toEqual([{ alias: "w", org: "acme", project: "web" }]);
    const second = extendAliases(first, [
      { org: "acme", project: "worker" },
      { org: "acme", project: "web" },
      { org: "acme", project: "api" },
    ]);
    expect(second[0]).toEqual(first[0]);
    const aliases = second.map((e) => e.alias);
    expect(new Set(aliases).size).toBe(aliases.length);
    expect(second.map((e) => e.project)).toEqual(["web", "worker", "api"]);
    expect(second.find((e) => e.project === "api")?.alias).toBe("a");
    expect(second.find((e) => e.project === "worker")?.alias).toBe("wo");
    // Nothing new: the same set back.
    expect(extendAliases(second, [{ org: "acme", project: "api" }])).toEqual(second);
  });

  test("a project whose every prefix is taken gets its slug, then a numbered slug", () => {
    const taken = ["a", "ap", "api", "acme-api"].map((alias, i) => ({ alias, org: "o", project: `p${i}` }));
    const out = extendAliases(taken, [{ org: "acme", project: "api" }]);
    expect(out[4]?.alias).toBe("api2");
  });
});
