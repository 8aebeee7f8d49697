import type { TrackerContext } from "../../context.ts";
import { assertProguardMapping, proguardUuid } from "../../lib/proguard/uuid.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { PROGUARD_UUID_VIEW } from "../../lib/format/proguard-uuid.ts";
import { writeDocView } from "../../lib/view/render.ts";
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
  await writeDocView(this, flags.json, PROGUARD_UUID_VIEW, { path, uuid });
}
