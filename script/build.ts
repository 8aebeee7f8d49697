/**
 * Compiles the standalone executable for this platform into dist/tracker.
 * `.env` and bunfig.toml autoloading are off in the binary, so a project's files can never inject
 * settings or tokens into it.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/** Flags shared by every compiled target. */
export const COMPILE_FLAGS = [
  "--compile",
  "--minify",
  "--bytecode",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
] as const;

/** Compiles src/bin.ts to `outfile`, optionally for another target with a given bun executable. */
export async function compile(
  outfile: string,
  opts: { target?: string; executablePath?: string; defines?: Record<string, string> } = {},
): Promise<void> {
  const args = [
    process.execPath,
    "build",
    resolve(ROOT, "src/bin.ts"),
    ...COMPILE_FLAGS,
    "--outfile",
    outfile,
  ];
  if (opts.target) args.push(`--target=${opts.target}`);
  if (opts.executablePath) args.push(`--compile-executable-path=${opts.executablePath}`);
  for (const [k, v] of Object.entries(opts.defines ?? {})) args.push(`--define=${k}=${JSON.stringify(v)}`);
  const proc = Bun.spawn(args, { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`bun build failed for ${outfile}`);
}

if (import.meta.main) {
  mkdirSync(resolve(ROOT, "dist"), { recursive: true });
  await compile(resolve(ROOT, "dist/tracker"));
}
