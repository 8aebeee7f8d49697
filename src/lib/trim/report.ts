/**
 * The `"truncated"` report of the JSON trimmer: what was removed where (items, fields, shortened
 * strings), kept within a third of the budget and with its own text size always known.
 */

import { setMember, stringSize } from "./tree.ts";

const OTHER = "(other paths)";
const SHORTENED = "(strings shortened)";

export type EntryKind = "items" | "field" | "strings" | "other";

interface Entry {
  kind: EntryKind;
  count: number;
  /** Text size of `"name":value` (compact colon; the indented space is added by the report). */
  text: number;
}

/** The `"truncated"` object, its text size kept up to date as entries change. */
export class Report {
  private readonly entries = new Map<string, Entry>();
  private textSum = 0;
  constructor(
    private readonly indent: number,
    private readonly cap: number,
  ) {}

  get size(): number {
    const n = this.entries.size;
    if (n === 0) return 2;
    return 2 + this.textSum + n * this.line + (n - 1) + (this.indent > 0 ? 1 + this.indent : 0);
  }

  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** Text the `"truncated"` member adds to a root object that has `rootMembers` other members. */
  extra(rootMembers: number): number {
    const line = this.indent > 0 ? 1 + this.indent : 0;
    const colon = this.indent > 0 ? 2 : 1;
    const joint = rootMembers > 0 ? 1 : this.indent > 0 ? 1 : 0;
    return line + stringSize("truncated") + colon + this.size + joint;
  }

  /** Counts one removal (`kind` items/field) at `path`, or a shortened string. */
  add(kind: EntryKind, path: string): void {
    let name = kind === "strings" ? SHORTENED : path === "" ? "(root)" : path;
    const existing = this.entries.get(name);
    if (existing && existing.kind !== kind) name = `${name} (${kind})`;
    if (
      !this.entries.has(name) &&
      kind !== "strings" &&
      this.size + this.entryText(name, kind, 1) + this.line + 1 > this.cap
    )
      name = OTHER;
    const entry = this.entries.get(name) ?? { kind: name === OTHER ? "other" : kind, count: 0, text: 0 };
    this.textSum -= entry.text;
    entry.count++;
    entry.text = this.entryText(name, entry.kind, entry.count);
    this.textSum += entry.text;
    this.entries.set(name, entry);
  }

  private entryText(name: string, kind: EntryKind, count: number): number {
    const value = kind === "field" ? stringSize(fieldValue(count)) : String(count).length;
    return stringSize(name) + (this.indent > 0 ? 2 : 1) + value;
  }

  /** Newline and indent before each entry (entries sit at depth 2). */
  private get line(): number {
    return this.indent > 0 ? 1 + 2 * this.indent : 0;
  }

  /** The report as data; `shortened` is how many cut strings are still in the result. */
  toJson(shortened: number): Record<string, number | string> {
    const out: Record<string, number | string> = {};
    for (const [name, e] of this.entries) {
      if (e.kind === "strings" && shortened === 0) continue;
      setMember(
        out,
        name,
        e.kind === "field" ? fieldValue(e.count) : e.kind === "strings" ? shortened : e.count,
      );
    }
    return out;
  }
}

function fieldValue(count: number): string {
  return count === 1 ? "field" : `field ×${count}`;
}
