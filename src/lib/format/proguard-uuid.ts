/** `proguard uuid`: the UUID a ProGuard mapping file is known by (what an event's image names). */
import type { DocView } from "../view/doc.ts";

/** A mapping file and its UUID (the `--json` document). */
export interface ProguardUuid {
  path: string;
  uuid: string;
}

/** The UUID alone on its line, for `$(tracker proguard uuid mapping.txt)`. */
export const PROGUARD_UUID_VIEW: DocView<ProguardUuid> = {
  name: "proguard uuid",
  id: "uuid",
  document: (u) => u,
  sections: (u) => [{ block: { kind: "lines", lines: [u.uuid] } }],
};
