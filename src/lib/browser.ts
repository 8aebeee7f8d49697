/**
 * The hardened browser opener, for the device-flow login and `--web`: only https URLs of the
 * service itself (http on loopback), never through a shell, never with tracker's secrets in the
 * opener's environment.
 */
import type { TrackerContext } from "../context.ts";
import { canPrompt } from "./automation.ts";
import { childEnv } from "./child-env.ts";
import { isHostedHost } from "./env.ts";
import { isLoopbackHost } from "./loopback.ts";

/** True when a browser may be opened: an interactive terminal, not CI or an agent, not --json. */
export function shouldOpenBrowser(ctx: TrackerContext, json: boolean): boolean {
  return canPrompt(ctx) && !json;
}

/**
 * Whether a server-supplied URL may be handed to the browser: `https:` (or `http:` on a loopback
 * host), on the service's own host or a subdomain of it (hosted: any *.sentry.io), and nothing a
 * program could read as an option. Everything else (file:, javascript:, ms-settings:, other
 * hosts) is only printed.
 */
export function browserSafeUrl(raw: string, serviceUrl: string): URL | undefined {
  if (raw.trim() !== raw || raw.startsWith("-")) return undefined;
  let url: URL;
  let service: URL;
  try {
    url = new URL(raw);
    service = new URL(serviceUrl);
  } catch {
    return undefined;
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return undefined;
  if (url.username || url.password) return undefined;
  const host = url.hostname.toLowerCase();
  const own = service.hostname.toLowerCase();
  const ok = host === own || host.endsWith(`.${own}`) || (isHostedHost(own) && isHostedHost(host));
  return ok ? url : undefined;
}

/**
 * Opens a URL in the default browser without waiting, never through a shell (a server string in
 * `cmd /c start` would be command injection), with tracker's secrets removed from the opener's
 * environment. Says whether it opened, refused an unsafe URL, or found no opener (a headless
 * machine): the caller then prints the URL.
 */
export function openBrowser(
  raw: string,
  serviceUrl: string,
  env: Record<string, string | undefined>,
): "opened" | "unsafe" | "no-opener" {
  const url = browserSafeUrl(raw, serviceUrl);
  if (!url) return "unsafe";
  const href = url.toString();
  const cmd =
    process.platform === "darwin"
      ? ["open", href]
      : process.platform === "win32"
        ? ["rundll32", "url.dll,FileProtocolHandler", href]
        : ["xdg-open", href];
  // The opener is looked up on the run's own PATH (Bun.spawn would use tracker's process PATH).
  const opener = Bun.which(cmd[0] ?? "", { PATH: env.PATH ?? "" });
  if (!opener) return "no-opener";
  try {
    const child = Bun.spawn([opener, ...cmd.slice(1)], {
      env: childEnv(env),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    child.unref();
    child.exited.catch(() => undefined);
  } catch {
    return "no-opener";
  }
  return "opened";
}
