import type { TrackerContext } from "../../context.ts";
import type { IssueUpdate } from "../../lib/api/issue-changes.ts";
import { ValidationError } from "../../lib/errors.ts";
import { runChange } from "../../lib/issue/change.ts";
import type { ArchiveFlags } from "./changes.ts";

const UNIT_MINUTES: Record<string, number> = { m: 1, h: 60, d: 1440, w: 10080 };

/** `<n><unit>` (m, h, d, w) in minutes. */
export function parseMinutes(raw: string, flag: string): number {
  const m = /^(\d{1,6})([mhdw])$/.exec(raw.trim());
  if (!m || Number(m[1]) === 0) {
    throw new ValidationError(
      `${flag} must be <number><unit> with unit m, h, d or w (e.g. 30m, 2h, 7d), got '${raw}'.`,
      flag.slice(2),
    );
  }
  return Number(m[1]) * (UNIT_MINUTES[m[2] as string] as number);
}

/** `<n>` or `<n>/<window>` of --count and --users. */
function parseThreshold(raw: string, flag: string): { n: number; window?: number } {
  const [count, window] = raw.split("/");
  if (!count || !/^\d{1,9}$/.test(count.trim()) || Number(count) === 0 || raw.split("/").length > 2) {
    throw new ValidationError(
      `${flag} must be <n> or <n>/<window> (e.g. 100 or 100/1h), got '${raw}'.`,
      flag.slice(2),
    );
  }
  return { n: Number(count), ...(window !== undefined ? { window: parseMinutes(window, flag) } : {}) };
}

/** Archived until `<n>` more events or users (optionally within a window) have been seen. */
function thresholdUpdate(
  raw: string,
  flag: "--count" | "--users",
  countKey: "ignoreCount" | "ignoreUserCount",
  windowKey: "ignoreWindow" | "ignoreUserWindow",
  noun: "events" | "users",
): { body: IssueUpdate; done: string } {
  const t = parseThreshold(raw, flag);
  return {
    body: {
      status: "ignored",
      substatus: "archived_until_condition_met",
      statusDetails: { [countKey]: t.n, ...(t.window ? { [windowKey]: t.window } : {}) },
    },
    done: `archived until ${t.n} more ${noun}${t.window ? ` within ${raw.split("/")[1]}` : ""}`,
  };
}

/** The update body and wording for the chosen archive condition. */
export function archiveUpdate(flags: ArchiveFlags): { body: IssueUpdate; done: string } {
  const chosen = [flags.until, flags.for, flags.count, flags.users, flags.forever || undefined].filter(
    (x) => x !== undefined,
  );
  if (chosen.length > 1) {
    throw new ValidationError(
      "Choose one of --until escalating, --for, --count, --users or --forever.",
      "until",
    );
  }
  if (flags.for !== undefined) {
    const minutes = parseMinutes(flags.for, "--for");
    return {
      body: {
        status: "ignored",
        substatus: "archived_until_condition_met",
        statusDetails: { ignoreDuration: minutes },
      },
      done: `archived for ${flags.for.trim()}`,
    };
  }
  if (flags.count !== undefined)
    return thresholdUpdate(flags.count, "--count", "ignoreCount", "ignoreWindow", "events");
  if (flags.users !== undefined) {
    return thresholdUpdate(flags.users, "--users", "ignoreUserCount", "ignoreUserWindow", "users");
  }
  if (flags.forever)
    return {
      body: { status: "ignored", substatus: "archived_forever", statusDetails: {} },
      done: "archived forever",
    };
  return {
    body: {
      status: "ignored",
      substatus: "archived_until_escalating",
      statusDetails: { ignoreUntilEscalating: true },
    },
    done: "archived until it escalates",
  };
}

/** `tracker issue archive <issue…>` (also `ignore`). */
export default async function issueArchive(this: TrackerContext, flags: ArchiveFlags, ...args: string[]) {
  const { body, done } = archiveUpdate(flags);
  await runChange(this, { command: "tracker issue archive", verb: "archive", done }, flags, args, body);
}
