import type { TrackerContext } from "../../context.ts";
import { dsnForSend } from "../../lib/envelope/dsn.ts";
import { readEnvelopeFile } from "../../lib/envelope/file.ts";
import { sendEnvelope } from "../../lib/envelope/send.ts";
import { writeResult } from "../../lib/view/write.ts";
import { EVENT_SEND_TIMEOUT_MS } from "./send.ts";
import type { EventSendEnvelopeFlags } from "./send-envelope-spec.ts";

/** `tracker event send-envelope <path>`: the file's envelope, as it is, to the DSN's project. */
export default async function eventSendEnvelope(
  this: TrackerContext,
  flags: EventSendEnvelopeFlags,
  path: string,
): Promise<void> {
  const file = readEnvelopeFile(path);
  const { dsn } = dsnForSend(this, "tracker event send-envelope <path>");
  const sent = await sendEnvelope(this, dsn, file.bytes, { timeoutMs: EVENT_SEND_TIMEOUT_MS });
  const id = sent.id ?? file.eventId ?? null;
  writeResult(
    this,
    flags.json,
    { eventId: id, bytes: file.bytes.length },
    id ?? `Sent ${path} (${file.bytes.length} bytes).`,
  );
}
