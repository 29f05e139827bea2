// Positions 0..n-1, each in one category that may change (a post's status), with one Fenwick
// tree per category. Counting the rows of a set of categories and finding the k-th of them
// both take O(categories · log n), so a status-filtered page at any offset costs the same
// as the first one, with no scan and no sort.

export class CategoryIndex {
  private trees: Int32Array[];
  private cats: Uint8Array;
  private counts: number[];
  private capacity: number;
  size = 0;

  constructor(
    private readonly categories: number,
    initial: ArrayLike<number> = [],
  ) {
    this.capacity = 1;
    while (this.capacity < Math.max(16, initial.length)) this.capacity *= 2;
    this.cats = new Uint8Array(this.capacity);
    this.cats.set(initial);
    this.size = initial.length;
    this.counts = new Array<number>(categories).fill(0);
    this.trees = [];
    this.rebuild();
  }

  private rebuild(): void {
    this.trees = Array.from({ length: this.categories }, () => new Int32Array(this.capacity + 1));
    this.counts.fill(0);
    // Linear-time Fenwick construction: each node passes its sum to its parent.
    for (let i = 1; i <= this.capacity; i++) {
      if (i <= this.size) {
        const c = this.cats[i - 1]!;
        this.trees[c]![i]! += 1;
        this.counts[c]!++;
      }
      const parent = i + (i & -i);
      if (parent <= this.capacity) for (const t of this.trees) t[parent]! += t[i]!;
    }
  }

  private add(pos: number, cat: number, delta: number): void {
    const t = this.trees[cat]!;
    for (let i = pos + 1; i <= this.capacity; i += i & -i) t[i]! += delta;
    this.counts[cat]! += delta;
  }

  push(cat: number): number {
    if (this.size === this.capacity) {
      const cats = new Uint8Array(this.capacity * 2);
      cats.set(this.cats);
      this.cats = cats;
      this.capacity *= 2;
      this.rebuild();
    }
    const pos = this.size++;
    this.cats[pos] = cat;
    this.add(pos, cat, 1);
    return pos;
  }

  category(pos: number): number {
    return this.cats[pos]!;
  }

  set(pos: number, cat: number): void {
    const old = this.cats[pos]!;
    if (old === cat) return;
    this.add(pos, old, -1);
    this.cats[pos] = cat;
    this.add(pos, cat, 1);
  }

  count(cats: readonly number[]): number {
    let n = 0;
    for (const c of cats) n += this.counts[c]!;
    return n;
  }

  /** Position of the rank-th (1-based, ascending) row whose category is in `cats`. */
  kth(cats: readonly number[], rank: number): number {
    let pos = 0;
    let step = this.capacity;
    let k = rank;
    while (step > 0) {
      const next = pos + step;
      if (next <= this.capacity) {
        let s = 0;
        for (const c of cats) s += this.trees[c]![next]!;
        if (s < k) {
          pos = next;
          k -= s;
        }
      }
      step >>= 1;
    }
    return pos;
  }

  /** Newest-first page (largest positions first) of the rows in `cats`. */
  pageDescending(cats: readonly number[], offset: number, limit: number): { total: number; rows: number[] } {
    const total = this.count(cats);
    const rows: number[] = [];
    for (let rank = total - offset; rank >= 1 && rows.length < limit; rank--) rows.push(this.kth(cats, rank));
    return { total, rows };
  }
}
