/**
 * The markdown of a JSON document made from a document view, kept beside the document (out of band,
 * so its JSON is unchanged) until lib/output.ts writes it: `--format md` then shows the view's
 * sections instead of guessing them from the document's shape.
 */
import type { Section } from "../format/markdown-parts.ts";

const ATTACHED = new WeakMap<object, () => Section[]>();

/** Remembers how `doc` reads as markdown. */
export function attachMarkdown(doc: object, sections: () => Section[]): void {
  ATTACHED.set(doc, sections);
}

/** The markdown sections attached to `doc`, if a view made it. */
export function attachedMarkdown(doc: unknown): (() => Section[]) | undefined {
  return typeof doc === "object" && doc !== null ? ATTACHED.get(doc) : undefined;
}
