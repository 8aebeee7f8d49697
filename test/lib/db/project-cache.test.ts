import { expect, test } from "bun:test";
import { cachedProjectId, cachedTargets, cacheProjects } from "../../../src/lib/db/project-cache.ts";
import { createTestContext } from "../../helpers/context.ts";

const env = { TRACKER_URL: "http://127.0.0.1:9" };

test("a renamed project keeps one slug: the old one goes, other projects stay", () => {
  const { ctx } = createTestContext({ env });
  cacheProjects(ctx, "acme", [
    { id: "1", slug: "web", name: "Web" },
    { id: "2", slug: "api", name: "API" },
  ]);
  cacheProjects(ctx, "acme", [{ id: "1", slug: "frontend", name: "Web" }]);
  expect(cachedTargets(ctx)).toEqual(["acme/api", "acme/frontend"]);
  expect(cachedProjectId(ctx, "acme", "frontend")).toBe("1");
  expect(cachedProjectId(ctx, "acme", "web")).toBeUndefined();
});

test("caching 40,000 projects twice finishes (linear: it took 147 s when each row scanned the table)", () => {
  const { ctx } = createTestContext({ env });
  const projects = Array.from({ length: 40_000 }, (_, i) => ({
    id: String(i),
    slug: `p${i}`,
    name: `P ${i}`,
  }));
  cacheProjects(ctx, "big", projects);
  // Every project renamed: each old slug is found and removed.
  cacheProjects(
    ctx,
    "big",
    projects.map((p) => ({ ...p, slug: `${p.slug}-new` })),
  );
  const targets = cachedTargets(ctx);
  expect(targets).toHaveLength(40_000);
  expect(targets.every((t) => t.endsWith("-new"))).toBe(true);
});
