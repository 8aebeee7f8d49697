import { dirname } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { writeOutput } from "../../lib/setup/report.ts";
import { runSetup } from "../../lib/setup/run.ts";
import { isCompiledBinary } from "../../lib/upgrade/platform.ts";
import type { SetupFlags } from "./index.ts";

/** `tracker cli setup`: PATH in shell startup files, the agent skill file, and the install method. */
export default async function cliSetup(this: TrackerContext, flags: SetupFlags): Promise<void> {
  const report = runSetup(this, {
    binaryPath: this.execPath,
    installDir: dirname(this.execPath),
    modifyPath: flags.modifyPath,
    agentSkills: flags.agentSkills,
    method: flags.method,
    compiled: isCompiledBinary(),
  });
  writeOutput(this, report, flags.json);
}
