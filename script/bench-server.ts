/**
 * The fake API in its own process for script/bench.ts, so the timed CLI talks to a server that does
 * not share an event loop with the process timing it. Driven over Bun's IPC channel:
 * "reset" clears the request log; "stats" answers with the request count and the summed time the
 * fake spent answering them. The first message sent is { url } once it listens.
 */
import { startFakeApi } from "../test/fake-api/server.ts";

type Reply = { url: string } | { reset: true } | { requests: number; serverMs: number };

const send = (m: Reply) => process.send?.(m);
const api = await startFakeApi();
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
