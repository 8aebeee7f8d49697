import type { TrackerContext } from "../../context.ts";
import { currentUserId, listTeams } from "../../lib/api/issue-changes.ts";
import { ResolutionError, ValidationError } from "../../lib/errors.ts";
import { runChange, type Target } from "../../lib/issue/change.ts";
import type { AssignFlags } from "./changes.ts";

/** The API's `assignedTo` for what the user typed: `me`, `#team-slug`, a username or an email. */
async function assigneeValue(ctx: TrackerContext, who: string, targets: readonly Target[]): Promise<string> {
  if (who === "me") return `user:${await currentUserId(ctx)}`;
  if (!who.startsWith("#")) return who;
  const slug = who.slice(1);
  const orgs = [...new Set(targets.map((t) => t.org))];
  if (orgs.length > 1) {
    throw new ValidationError(
      `A team (${who}) can only be assigned issues of one organization at a time.`,
      "assignee",
    );
  }
  const org = orgs[0];
  if (!org) return who;
  const teams = await listTeams(ctx, org);
  const team = teams.find((t) => t.slug === slug);
  if (!team) {
    throw new ResolutionError(
      `Team '${slug}'`,
      `was not found in ${org}`,
      teams.length ? `Teams of ${org}: ${teams.map((t) => `#${t.slug}`).join(", ")}` : `${org} has no teams.`,
    );
  }
  return `team:${team.id}`;
}

/** `tracker issue assign <issue…> <assignee>` / `--none`. */
export default async function issueAssign(this: TrackerContext, flags: AssignFlags, ...args: string[]) {
  let refs = args;
  let who: string | undefined;
  if (!flags.none) {
    who = args[args.length - 1];
    refs = args.slice(0, -1);
    if (who === undefined || (refs.length === 0 && flags.query === undefined)) {
      throw new ValidationError(
        "Name the issues and then the assignee (me, a username, an email or #team), or use --none.",
        "assignee",
      );
    }
  }
  const done = who ? `assigned to ${who}` : "unassigned";
  await runChange(
    this,
    { command: "tracker issue assign", verb: "assign", done },
    flags,
    refs,
    async (targets) => ({
      assignedTo: who ? await assigneeValue(this, who, targets) : null,
    }),
  );
}
