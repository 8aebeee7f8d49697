import type { TrackerContext } from "../../context.ts";
import { readDsnProject } from "../../lib/db/dsn-cache.ts";
import type { Dsn } from "../../lib/dsn/parse.ts";
import { findSendDsn, noDsnError } from "../../lib/envelope/dsn.ts";
import { dsnByToken, hasToken } from "../../lib/envelope/dsn-by-token.ts";
import { buildEvent } from "../../lib/envelope/event.ts";
import { tailLines } from "../../lib/envelope/logfile.ts";
import { buildEnvelope, newId, sendEnvelope } from "../../lib/envelope/send.ts";
import { oneLine } from "../../lib/format/one-line.ts";
import { writeTip } from "../../lib/output.ts";
import { writeResult } from "../../lib/view/write.ts";
import { orgWebUrl, webPath } from "../../lib/web.ts";
import type { EventSendFlags } from "./send-spec.ts";

/** How long one event send may take. */
export const EVENT_SEND_TIMEOUT_MS = 10_000;

/**
 * The event's page when the organization is known without a request: from the DSN's cached
 * resolution, or TRACKER_ORG (with TRACKER_PROJECT, else an issue search for the event ID).
 */
export function eventUrl(ctx: TrackerContext, dsn: Dsn, eventId: string): string | null {
  const cached = readDsnProject(ctx, dsn.raw);
  const org = cached?.org ?? ctx.settings.org;
  if (!org) return null;
  const project = cached?.project ?? ctx.settings.project;
  const path = project
    ? webPath.projectEvent(project, eventId)
    : `issues/?project=${encodeURIComponent(dsn.projectId)}&query=${eventId}`;
  return orgWebUrl(ctx.settings.baseUrl, org) + path;
}

const COMMAND = "tracker event send -m <message>";

/**
 * The DSN to send with: environment, `.sentryclirc` `[auth] dsn`, detection; else, with a token,
 * the context project's DSN (as `monitor run` does); else the error naming every place looked at.
 */
async function eventDsn(ctx: TrackerContext): Promise<{ dsn: Dsn; source: string }> {
  const found = findSendDsn(ctx);
  if (found) return found;
  if (!(await hasToken(ctx))) {
    throw noDsnError(COMMAND, [
      "or log in (tracker auth login, or TRACKER_AUTH_TOKEN) and name the project: its DSN is then asked",
    ]);
  }
  return { dsn: await dsnByToken(ctx, COMMAND), source: "the project's client keys (asked with the token)" };
}

/** `tracker event send`: build the event, send it by DSN, print its ID (where it went on stderr). */
export default async function eventSend(this: TrackerContext, flags: EventSendFlags): Promise<void> {
  const logLines = flags.logfile !== undefined ? tailLines(flags.logfile) : [];
  const { dsn, source } = await eventDsn(this);
  const eventId = newId();
  const nowMs = this.now();
  const event = buildEvent({
    eventId,
    nowMs,
    level: flags.level,
    message: flags.message,
    tags: flags.tag ?? [],
    extra: flags.extra ?? [],
    user: flags.user ?? [],
    fingerprint: flags.fingerprint ?? [],
    release: flags.release,
    dist: flags.dist,
    environment: flags.env,
    logLines,
  });
  const body = buildEnvelope({ event_id: eventId, sent_at: new Date(nowMs).toISOString() }, [
    { type: "event", payload: event },
  ]);
  const sent = await sendEnvelope(this, dsn, body, { timeoutMs: EVENT_SEND_TIMEOUT_MS });
  const id = sent.id ?? eventId;
  // A repository's .env can choose the DSN: say where the event went, and which file chose it.
  writeTip(this, `Sent to ${dsn.host} (project ${dsn.projectId}); DSN from ${oneLine(source)}.`);
  // The text is the event ID alone, for scripts (`id=$(tracker event send -m …)`); it shows no
  // URL, so only a document looks it up (the lookup opens the local database).
  const doc = flags.json ? { eventId: id, url: eventUrl(this, dsn, id) } : { eventId: id };
  writeResult(this, flags.json, doc, id);
}
