/**
 * Fails when the modules under src/ import each other in a cycle, counting static imports,
 * re-exports and dynamic `import()` alike (a cycle hidden behind a lazy import still ties two
 * layers together). Type-only imports are ignored: they vanish at run time.
 *
 *   bun run script/check-cycles.ts        # prints each cycle, exits 1 when there is one
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** Every .ts file under a directory. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const STATIC_RE = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC_RE = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The local modules a file imports at run time (absolute paths). */
export function runtimeImports(file: string, text: string): string[] {
  const specs: string[] = [];
  // Comments could name an import; strip block and line comments first.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  for (const m of code.matchAll(STATIC_RE)) specs.push(m[1] as string);
  for (const m of code.matchAll(DYNAMIC_RE)) specs.push(m[1] as string);
  return specs.filter((s) => s.startsWith(".")).map((s) => resolve(dirname(file), s));
}

/** Strongly connected components of more than one module, or a module importing itself. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** The import graph of src/. */
export function srcGraph(dir = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) graph.set(file, runtimeImports(file, readFileSync(file, "utf8")));
  return graph;
}

if (import.meta.main) {
  const cycles = findCycles(srcGraph());
  for (const c of cycles) console.error(`cycle: ${c.map((f) => relative(ROOT, f)).join(" ↔ ")}`);
  if (cycles.length > 0) {
    console.error(`${cycles.length} import cycle(s) among src/ modules`);
    process.exit(1);
  }
  console.log("no import cycles among src/ modules");
}
