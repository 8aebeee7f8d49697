/**
 * The view of a `--dry-run`: the requests a change would send, each its method and path and then
 * its JSON body, indented; the `--json` document is lib/dry-run.ts's `{"dryRun": true, "requests"}`.
 */
import { type PlannedRequest, dryRunDocument } from "../dry-run.ts";
import { jsonText } from "../output.ts";
import type { DocView, ViewSection } from "../view/doc.ts";

/** What a dry run would do: its requests, and what the command adds to the document (`changed`). */
export interface DryRun {
  requests: readonly PlannedRequest[];
  extra?: Record<string, unknown>;
  /** Lines before the requests (what would change, in words). */
  said?: readonly string[];
}

/** A request as the text shows it: `POST /path`, then its body as indented JSON. */
export function requestLines(req: PlannedRequest): string[] {
  const body = req.body === undefined ? [] : jsonText(req.body, true).split("\n");
  return [`${req.method} ${req.path}`, ...body];
}

export const DRY_RUN_VIEW: DocView<DryRun> = {
  name: "dry run",
  id: "",
  document: (d) => dryRunDocument(d.requests, d.extra),
  sections: (d) => [
    // The text says this on stderr (a tip); the markdown's title says it.
    { block: { kind: "lines", lines: ["Dry run: nothing was sent."] }, markdownOnly: true },
    ...(d.said && d.said.length > 0 ? [{ block: { kind: "lines", lines: d.said } } as ViewSection] : []),
    ...d.requests.map(
      (req): ViewSection => ({ block: { kind: "lines", lines: requestLines(req) }, tight: true }),
    ),
  ],
};
