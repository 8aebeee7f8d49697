import type { TrackerContext } from "../../context.ts";
import { assertProguardMapping, proguardUuid } from "../../lib/proguard/uuid.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import type { ProguardUuidFlags } from "./index.ts";

/** `tracker proguard uuid <mapping>`: local, no network. */
export default async function proguardUuidCommand(
  this: TrackerContext,
  flags: ProguardUuidFlags,
  path: string,
): Promise<void> {
  const abs = resolveLocalFile(this.cwd, path);
  await assertProguardMapping(abs, path);
  const uuid = await proguardUuid(abs);
  if (flags.json) return writeJson(this, { path, uuid });
  writeLines(this, uuid);
}
