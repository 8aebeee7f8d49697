import { dirname, resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { writeOutput } from "../../lib/setup/report.ts";
import { runSetup } from "../../lib/setup/run.ts";
import { linkSentryCli, type SentryCliLink } from "../../lib/setup/sentry-cli-link.ts";
import { isCompiledBinary } from "../../lib/upgrade/platform.ts";
import type { SetupFlags } from "./index.ts";

/** `tracker cli setup`: PATH in shell startup files, the agent skill file, and the install method. */
export default async function cliSetup(this: TrackerContext, flags: SetupFlags): Promise<void> {
  // The link first: a refused one (an existing sentry-cli) leaves everything else unchanged too.
  let link: SentryCliLink | undefined;
  if (flags.sentryCliLink !== undefined) {
    // From source the executable is bun: the link points at the entry script (it has a #! line).
    const target = isCompiledBinary() ? this.execPath : Bun.main;
    const dir = flags.sentryCliLink === "" ? dirname(target) : resolve(this.cwd, flags.sentryCliLink);
    link = linkSentryCli(dir, target, flags.force);
  }
  const report = runSetup(this, {
    binaryPath: this.execPath,
    installDir: dirname(this.execPath),
    modifyPath: flags.modifyPath,
    agentSkills: flags.agentSkills,
    method: flags.method,
    compiled: isCompiledBinary(),
  });
  if (link) report.sentryCliLink = link;
  writeOutput(this, report, flags.json);
}
