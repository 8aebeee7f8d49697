import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A developer's own login or defaults must never leak into a test run.
for (const key of Object.keys(process.env)) {
  if (key.startsWith("TRACKER_") && key !== "TRACKER_TEST_BINARY") delete process.env[key];
}
for (const key of [
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "https_proxy",
  "http_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "NO_COLOR",
]) {
  delete process.env[key];
}
process.env.TRACKER_CONFIG_DIR = mkdtempSync(join(tmpdir(), "tracker-test-config-"));
