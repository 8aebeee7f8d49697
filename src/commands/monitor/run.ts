import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { findSendDsn } from "../../lib/envelope/dsn.ts";
import { dsnByToken, hasToken, NoProjectForDsn } from "../../lib/envelope/dsn-by-token.ts";
import { envelopeUrl } from "../../lib/envelope/send.ts";
import type { Dsn } from "../../lib/dsn/parse.ts";
import { CliError, ContextError, ValidationError } from "../../lib/errors.ts";
import { JobExitError } from "../../lib/monitor/child.ts";
import { monitorConfig, NoCheckIns, runMonitored } from "../../lib/monitor/run.ts";
import { SLUG_RE as TARGET_SLUG_RE } from "../../lib/resolve/url.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import type { MonitorRunFlags } from "./index.ts";

const SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,49}$/i;

/**
 * The DSN of the check-ins, found beside the job (never holding it up): TRACKER_DSN/SENTRY_DSN,
 * `.sentryclirc` `[auth] dsn`, the project's detected DSN; else, with a token, the context
 * project's DSN. Any failure rejects with NoCheckIns: the job runs without check-ins, one warning.
 */
async function monitorDsn(ctx: TrackerContext, slug: string): Promise<Dsn> {
  const command = `tracker monitor run ${slug} -- <command>`;
  try {
    const found = findSendDsn(ctx);
    const dsn = found?.dsn ?? (await viaToken(ctx, command));
    envelopeUrl(dsn, ctx);
    return dsn;
  } catch (err) {
    if (err instanceof NoCheckIns || !(err instanceof CliError)) throw err;
    // A ContextError's message is only "<Resource> is required."; its usage line says why.
    const text = err instanceof ContextError ? err.usage : err.message;
    throw new NoCheckIns((text.split("\n")[0] ?? text).replace(/\.$/, ""));
  }
}

async function viaToken(ctx: TrackerContext, command: string): Promise<Dsn> {
  if (!(await hasToken(ctx))) {
    throw new NoCheckIns(
      "no DSN found (TRACKER_DSN, SENTRY_DSN, .sentryclirc [auth] dsn, .env files, source code) and no token to ask one with",
    );
  }
  return dsnByToken(ctx, command).catch((err) => {
    if (err instanceof NoProjectForDsn) {
      throw new NoCheckIns(
        `no DSN found, and no project to ask one for (TRACKER_ORG=<org> TRACKER_PROJECT=<project> ${command})`,
      );
    }
    throw err;
  });
}

/** A word that reads as `<org>/<project>` and is not a file here: a target given where the command goes. */
function looksLikeTarget(ctx: TrackerContext, word: string): boolean {
  const parts = word.split("/");
  return (
    parts.length === 2 && parts.every((p) => TARGET_SLUG_RE.test(p)) && !existsSync(resolve(ctx.cwd, word))
  );
}

/** Checks the words before anything runs: a slug first, then a command (not a target). */
function checkWords(ctx: TrackerContext, words: readonly string[]): { slug: string; command: string[] } {
  const [slug, ...command] = words;
  if (slug === undefined || !SLUG_RE.test(slug)) {
    // `monitor run -- ./backup.sh`: the command came first, so the slug is missing.
    if (slug !== undefined && (/[/.]/.test(slug) || Bun.which(slug, { PATH: ctx.env.PATH ?? "" }))) {
      throw new ValidationError(
        `The monitor slug is missing before --: tracker monitor run <slug> -- ${words.map(quoteWord).join(" ")}`,
        "slug",
      );
    }
    throw new ValidationError(
      `Invalid monitor slug '${slug ?? ""}': letters, digits, - and _ (up to 50).`,
      "slug",
    );
  }
  if (command.length === 0) {
    throw new ValidationError(
      `Name the command after --: tracker monitor run ${slug} -- <command>`,
      "command",
    );
  }
  const first = command[0] as string;
  if (command.length === 1 && looksLikeTarget(ctx, first)) {
    const [org, project] = first.split("/") as [string, string];
    throw new ValidationError(
      `'${first}' would run as the command. monitor run takes no target: name the project in the environment and the command after --:\n  TRACKER_ORG=${quoteWord(org)} TRACKER_PROJECT=${quoteWord(project)} tracker monitor run ${slug} -- <command>`,
      "command",
    );
  }
  return { slug, command };
}

/**
 * `tracker monitor run <slug> -- <command…>`: check the flags before anything runs, then run the
 * job between its check-ins (the DSN is found beside it) and exit with its code (JobExitError when
 * not 0). Without a usable DSN the job still runs: one warning says why there are no check-ins.
 */
export default async function monitorRun(
  this: TrackerContext,
  flags: MonitorRunFlags,
  ...words: string[]
): Promise<void> {
  const { slug, command } = checkWords(this, words);
  if (flags.schedule !== undefined && flags.interval !== undefined) {
    throw new ValidationError("Use --schedule or --interval, not both.", "schedule");
  }
  const config = monitorConfig(flags);
  const tuning =
    flags.checkInMargin ??
    flags.maxRuntime ??
    flags.timezone ??
    flags.failureIssueThreshold ??
    flags.recoveryThreshold;
  if (!config && tuning !== undefined) {
    throw new ValidationError(
      "--check-in-margin, --max-runtime, --timezone and the thresholds go with --schedule or --interval.",
      "schedule",
    );
  }
  const dsn = monitorDsn(this, slug);
  // Awaited by the check-ins only; a rejection there is the one warning.
  dsn.catch(() => undefined);
  const outcome = await runMonitored(this, { dsn, slug, environment: flags.env, config, command });
  if (outcome.code !== 0) throw new JobExitError(outcome);
}
