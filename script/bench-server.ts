/**
 * The fake API in its own process for script/bench.ts, so the timed CLI talks to a server that does
 * not share an event loop with the process timing it. Driven over Bun's IPC channel:
 * "reset" clears the request log; "stats" answers with the request count and the summed time the
 * fake spent answering them. The first message sent is { url } once it listens. BENCH_LATENCY_MS
 * makes it wait that long before every answer (the bench's --latency mode).
 */
import { startFakeApi } from "../test/fake-api/server.ts";

type Reply = { url: string } | { reset: true } | { requests: number; serverMs: number };

const send = (m: Reply) => process.send?.(m);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0) || 0;
const api = await startFakeApi({ latencyMs });
process.on("message", (m: unknown) => {
  if (m === "reset") {
    api.reset();
    send({ reset: true });
  } else if (m === "stats") {
    send({ requests: api.requests.length, serverMs: api.requests.reduce((s, r) => s + r.serverMs, 0) });
  } else if (m === "stop") {
    api.stop();
    process.exit(0);
  }
});
process.on("disconnect", () => {
  api.stop();
  process.exit(0);
});
send({ url: api.url });
