/**
 * The priority structures behind the O(n log n) JSON trimmer: a Fenwick tree that keeps the text
 * removed inside every node's subtree (a subtree is a contiguous range of document order), and a
 * max-heap that hands the trimmer its largest candidate next.
 */

/** Sums over prefixes of node positions, with point updates, in O(log n). */
export class Fenwick {
  private readonly tree: Float64Array;
  constructor(n: number) {
    this.tree = new Float64Array(n + 1);
  }
  add(i: number, delta: number): void {
    for (let j = i + 1; j < this.tree.length; j += j & -j) this.tree[j] = (this.tree[j] as number) + delta;
  }
  /** Sum of positions 0..i. */
  prefix(i: number): number {
    let s = 0;
    for (let j = i + 1; j > 0; j -= j & -j) s += this.tree[j] as number;
    return s;
  }
}

/** Max-heap of nodes by key; ties go to the later node (the end of the document first). */
export class MaxHeap {
  private readonly keys: number[] = [];
  private readonly nodes: number[] = [];
  private above(a: number, b: number): boolean {
    const ka = this.keys[a] as number;
    const kb = this.keys[b] as number;
    return ka > kb || (ka === kb && (this.nodes[a] as number) > (this.nodes[b] as number));
  }
  private swap(a: number, b: number): void {
    const key = this.keys[a] as number;
    const node = this.nodes[a] as number;
    this.keys[a] = this.keys[b] as number;
    this.nodes[a] = this.nodes[b] as number;
    this.keys[b] = key;
    this.nodes[b] = node;
  }
  push(key: number, node: number): void {
    this.keys.push(key);
    this.nodes.push(node);
    for (let i = this.keys.length - 1; i > 0 && this.above(i, (i - 1) >> 1); i = (i - 1) >> 1)
      this.swap(i, (i - 1) >> 1);
  }
  pop(): [number, number] | undefined {
    if (this.keys.length === 0) return undefined;
    const top: [number, number] = [this.keys[0] as number, this.nodes[0] as number];
    this.swap(0, this.keys.length - 1);
    this.keys.pop();
    this.nodes.pop();
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const best = l + 1 < this.keys.length && this.above(l + 1, l) ? l + 1 : l;
      if (best >= this.keys.length || !this.above(best, i)) break;
      this.swap(i, best);
      i = best;
    }
    return top;
  }
}
