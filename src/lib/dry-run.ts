/**
 * The one `--dry-run` contract: a change command that is asked not to change anything prints the
 * requests it would send, and with `--json` the document `{"dryRun": true, "requests": [{"method",
 * "path", "body"?}], …}` (a command may add what it would change, e.g. `changed`).
 */

/** A change request, as sent and as `--dry-run` prints it. */
export interface PlannedRequest {
  method: "POST" | "PUT" | "DELETE";
  /** Path below the service's API host (query string included), percent-encoded as sent. */
  path: string;
  body?: unknown;
}

/** The `--dry-run --json` document: the requests first, then anything the command adds. */
export function dryRunDocument(
  requests: readonly PlannedRequest[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { dryRun: true, requests, ...extra };
}
