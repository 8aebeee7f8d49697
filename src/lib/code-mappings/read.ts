/**
 * The inputs of `code-mappings upload`: the mappings file (a JSON array of `{stackRoot,
 * sourceRoot}`), and the repository and default branch from git when not given (origin's
 * `owner/repo`; origin's HEAD branch, else `main`).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import type { CodeMapping } from "../api/code-mappings.ts";
import { ValidationError } from "../errors.ts";
import { originRepoName, runGit } from "../release/git.ts";
import { readRegularFile } from "../fs/regular.ts";

const MappingsFile = v.array(
  v.object({ stackRoot: v.pipe(v.string(), v.minLength(1)), sourceRoot: v.string() }),
);

/** Largest mappings file read (a real one lists a few roots). */
const MAX_MAPPINGS_BYTES = 16 * 1024 * 1024;

/** The mappings of a file; a ValidationError naming the first bad entry otherwise. */
export async function readCodeMappings(abs: string, shown: string): Promise<CodeMapping[]> {
  let raw: unknown;
  const read = readRegularFile(abs, MAX_MAPPINGS_BYTES);
  if (!read.ok) throw new ValidationError(`Cannot read ${shown}: ${read.note}.`, "path");
  try {
    raw = JSON.parse(read.data.toString("utf8"));
  } catch (err) {
    throw new ValidationError(`${shown} is not valid JSON: ${(err as Error).message}`, "path");
  }
  const r = v.safeParse(MappingsFile, raw);
  if (!r.success) {
    const where = r.issues[0]?.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new ValidationError(
      `${shown} must be a JSON array of {"stackRoot", "sourceRoot"}${where ? ` (at ${where})` : ""}: ${r.issues[0]?.message}`,
      "path",
    );
  }
  if (r.output.length === 0) throw new ValidationError(`${shown} holds no mappings.`, "path");
  return r.output;
}

/** The repository to map to: `--repo`, else origin's `owner/repo`. */
export async function repositoryOf(ctx: TrackerContext, flag: string | undefined): Promise<string> {
  return flag ?? originRepoName(ctx);
}

/** The default branch: `--default-branch`, else origin's HEAD branch, else `main`. */
export async function defaultBranchOf(ctx: TrackerContext, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const r = await runGit(ctx, ["symbolic-ref", "--short", "refs/remotes/origin/HEAD"]);
  const ref = r.code === 0 ? r.stdout.trim() : "";
  return ref.startsWith("origin/") ? ref.slice("origin/".length) : "main";
}
