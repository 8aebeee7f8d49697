/**
 * The JSON trimmer's state: which nodes are gone or cut, and the current text size of any node and
 * of the whole result (report included), each removal applied in O(log n).
 */

import { Fenwick } from "./queue.ts";
import { type EntryKind, Report } from "./report.ts";
import { OBJECT, stringSize, type Tree } from "./tree.ts";

/** The trimming state: what is gone, what is cut, and the current text size. */
export class Trimmer {
  readonly t: Tree;
  readonly report: Report | undefined;
  readonly live: number[];
  readonly shortened = new Map<number, string>();
  readonly gone: Uint8Array;
  private readonly removed: Fenwick;
  private readonly dead: Fenwick;
  private removedTotal = 0;

  constructor(
    t: Tree,
    readonly maxChars: number,
    readonly indent: number,
  ) {
    this.t = t;
    this.live = t.members.map((m) => m.length);
    this.gone = new Uint8Array(t.n);
    this.removed = new Fenwick(t.n);
    this.dead = new Fenwick(t.n);
    this.report = t.kind[0] === OBJECT ? new Report(indent, Math.floor(maxChars / 3)) : undefined;
  }

  /** Current text size of node `i`'s value. */
  current(i: number): number {
    const inside = this.removed.prefix(this.t.last[i] as number) - this.removed.prefix(i - 1);
    return (this.t.size[i] as number) - inside;
  }

  /** Current text size of the whole result, report included. */
  total(): number {
    const r = this.report;
    const extra = r && !r.empty ? r.extra(this.live[0] as number) : 0;
    return (this.t.size[0] as number) - this.removedTotal + extra;
  }

  fits(): boolean {
    return this.total() <= this.maxChars;
  }

  /** Whether neither `i` nor anything around it was removed. */
  alive(i: number): boolean {
    return this.dead.prefix(i) === 0;
  }

  /** Text a member takes in its container: indent, key and value. */
  memberSize(i: number): number {
    return (this.t.prefix[i] as number) + this.current(i);
  }

  /** Removes member `i` from its container, counting it in the report as `kind` when given. */
  remove(i: number, kind?: EntryKind): void {
    const p = this.t.parent[i] as number;
    const count = this.live[p] as number;
    const close = count === 1 && this.indent > 0 ? 1 + this.indent * (this.t.depth[p] as number) : 0;
    this.change(i, this.memberSize(i) + (count > 1 ? 1 : 0) + close);
    this.live[p] = count - 1;
    this.gone[i] = 1;
    this.dead.add(i, 1);
    if ((this.t.last[i] as number) + 1 < this.t.n) this.dead.add((this.t.last[i] as number) + 1, -1);
    if (kind) this.report?.add(kind, this.t.path[i] as string);
  }

  /** Removes the last remaining item of array `a`. */
  dropLast(a: number): void {
    this.remove((this.t.members[a] as number[])[(this.live[a] as number) - 1] as number, "items");
  }

  /** Replaces string `i` by `text`. */
  shorten(i: number, text: string): void {
    if (!this.shortened.has(i)) this.report?.add("strings", "");
    this.change(i, this.current(i) - stringSize(text));
    this.shortened.set(i, text);
  }

  private change(i: number, removedChars: number): void {
    this.removed.add(i, removedChars);
    this.removedTotal += removedChars;
  }
}
