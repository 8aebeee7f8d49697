/** Shared types of the fake Sentry API server. */

/** Which listener served a request: the control silo or a region. */
export type HostName = "control" | "us" | "de";

/** A seeded user. */
export interface SeedUser {
  id: string;
  name: string;
  username: string;
  email: string;
}

/** A token the fake server accepts. */
export interface TokenInfo {
  userId: string | undefined;
  scopes: readonly string[];
  /** Org-bound tokens (org auth tokens, org-bound OAuth) only reach this org. */
  org?: string;
  expired?: boolean;
  kind: "user" | "org" | "oauth";
}

/** A seeded organization. */
export interface SeedOrg {
  id: string;
  slug: string;
  name: string;
  region: Exclude<HostName, "control">;
  dateCreated: string;
  /** Org option "Hide AI features". */
  hideAiFeatures?: boolean;
}

/** A seeded project with its client key. */
export interface SeedProject {
  id: string;
  slug: string;
  name: string;
  platform: string;
  org: string;
  dateCreated: string;
  publicKey: string;
  /** `hosted` DSNs carry the org id in the host; `selfhosted` ones point at the control listener. */
  dsnStyle: "hosted" | "selfhosted";
  /** Members see it without project=-1. */
  isMember: boolean;
}

/** Mutable server state; route modules keep their own data in `store` under their own key. */
export interface FakeState {
  users: SeedUser[];
  tokens: Map<string, TokenInfo>;
  orgs: SeedOrg[];
  projects: SeedProject[];
  store: Map<string, unknown>;
  urls: Record<HostName, string>;
}

/** A recorded request. */
export interface RecordedRequest {
  method: string;
  host: HostName;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  status: number;
  /** Time the fake spent on the request, from arrival to a complete Response (body serialised), in ms. */
  serverMs: number;
  /**
   * Which sequential round trip this request is: 1 + the highest round among requests already
   * answered when it arrived. Requests sent together share a round (give the fake some latency so
   * none is answered before its siblings arrive); a command's highest round is its round trips.
   */
  round: number;
}

/** What a route handler receives. */
export interface FakeRequest {
  method: string;
  host: HostName;
  path: string;
  url: URL;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: Headers;
  body: string;
  token: TokenInfo | undefined;
  state: FakeState;
}

/** One route: method, path pattern (`:name` segments), hosts it is served on, auth requirement. */
export interface Route {
  method: string;
  pattern: string;
  /** `control`: control silo only; `region`: region listeners (org-scoped, must own the org) and control (gateway). */
  hosts: "control" | "region" | "any";
  /** Scope needed (any of); undefined = no token needed. */
  scopes?: readonly string[];
  handler: (req: FakeRequest) => Response | Promise<Response>;
}

/** A fault to inject into matching requests. */
export interface Fault {
  method?: string;
  path?: string | RegExp;
  host?: HostName;
  /** How many matching requests it applies to (default 1; Infinity for all). */
  times?: number;
  status?: number;
  body?: unknown;
  /** Raw body text (e.g. HTML or truncated JSON) instead of `body`. */
  raw?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (the fault can still pass through with `status` unset). */
  delayMs?: number;
  /**
   * Break the connection instead of answering: `before-response` resets it before any byte (a
   * connection error for the client), `mid-body` sends the status, headers and part of `raw`/`body`
   * and then resets it (a truncated transfer).
   */
  disconnect?: "before-response" | "mid-body";
  /** Send the status and headers at once but hold the body back this long (a server stalling mid-response). */
  bodyDelayMs?: number;
  /** Send the body one byte every this many ms (a server that drips forever, never stalling long). */
  dripMs?: number;
  /** Stream the body in 1 MiB chunks without a Content-Length (its size known only by reading it). */
  chunked?: boolean;
}
