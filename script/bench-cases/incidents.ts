/**
 * The incident reads (issue 34) and the paging/window additions, against the fake API with warm
 * caches (each setup runs the command once): `--latency 150` shows their sequential round trips —
 * 1 for each list, 2 for `issue view` (detail + latest event, then committers + deploys + links
 * together).
 */
import { warm } from "./explore.ts";
import type { BenchCase } from "./types.ts";

/** Bench cases of the incident reads (names start with "incident:" for --filter). */
export const cases: BenchCase[] = [
  warm("incident: issue view WEB-4Y (suspects, deploys, links)", ["issue", "view", "acme/WEB-4Y", "--json"]),
  warm("incident: issue activity WEB-4Y", ["issue", "activity", "acme/WEB-4Y", "--json"]),
  warm("incident: issue timeline WEB-4Y", ["issue", "timeline", "acme/WEB-4Y", "--json"]),
  warm("incident: feedback list", ["feedback", "list", "acme/web", "--json"]),
  warm("incident: replay list", ["replay", "list", "acme/web", "--json"]),
  warm("incident: attribute list spans", ["attribute", "list", "--dataset", "spans", "acme/web", "--json"]),
  warm("incident: issue list with a window and -e", [
    "issue",
    "list",
    "acme/web",
    "-t",
    "2026-01-14..2026-01-16",
    "-e",
    "production",
    "--json",
  ]),
  warm("paging: issue list -n 50 --max-chars 2000", [
    "issue",
    "list",
    "acme/web",
    "-n",
    "50",
    "--max-chars",
    "2000",
  ]),
];
