/**
 * `defaults show`: the organization, project and service URL a command run here would use, each
 * with where it comes from, then the default environments, the `--here` default and the global
 * default it shadows.
 */
import type { Provenance } from "../config/sources.ts";
import type { ProjectDefault } from "../db/project-defaults.ts";
import type { DocView, ViewSection } from "../view/doc.ts";

/** The stored global default (`defaults set`), and whether a `--here` default shadows it here. */
export interface GlobalDefault {
  org: string | null;
  project: string | null;
  shadowed: boolean;
}

/** The `defaults show --json` document. */
export interface DefaultsDocument {
  org: string | null;
  project: string | null;
  url: string;
  sources: { org: Provenance | null; project: Provenance | null; url: Provenance };
  here: ProjectDefault | null;
  global: GlobalDefault | null;
  environments: readonly string[];
}

/** The document and the notes a text run says on stderr (how to set them, what an env var overrides). */
export interface DefaultsReport {
  doc: DefaultsDocument;
  notes: readonly string[];
}

/** `acme (from .sentryclirc)`, `https://sentry.io (default)`, or `-`. */
function describe(value: string | null, source: Provenance | null): string {
  if (!value || !source) return "-";
  return source.kind === "default" ? `${value} (default)` : `${value} (from ${source.label})`;
}

/** `Label:` then the value from this column. */
const COLUMN = 15;

/**
 * `No defaults set.` over the URL, or the organization, project and URL; then the environments,
 * the `--here` default and the global default it shadows, one `Label: value` line each.
 */
export const DEFAULTS_VIEW: DocView<DefaultsReport> = {
  name: "defaults show",
  id: "org",
  document: (r) => r.doc,
  sections: ({ doc: d, notes }) => {
    const none = d.org === null && d.project === null && d.environments.length === 0;
    const url = ["URL", describe(d.url, d.sources.url)] as const;
    const pairs: (readonly [string, string])[] = none
      ? [url]
      : [
          ["Organization", describe(d.org, d.sources.org)],
          ["Project", describe(d.project, d.sources.project)],
          url,
        ];
    if (d.environments.length > 0) pairs.push(["Environment", `${d.environments.join(", ")} (default)`]);
    const here = d.here;
    if (here)
      pairs.push(["Here", `${here.project ? `${here.org}/${here.project}` : here.org} (for ${here.root})`]);
    const global = d.global;
    if (global?.shadowed) {
      const named = global.project ? `${global.org ?? "-"}/${global.project}` : (global.org ?? "-");
      pairs.push(["Global", `${named} (shadowed here by defaults --here)`]);
    }
    const sections: ViewSection[] = [
      { block: { kind: "pairs", pairs, column: COLUMN }, tight: true },
      { heading: "Notes", block: { kind: "lines", lines: notes }, markdownOnly: true },
    ];
    return none ? [{ block: { kind: "lines", lines: ["No defaults set."] } }, ...sections] : sections;
  },
};
