// An append-only list of 32-bit integers in a typed array: 4 bytes a row, no per-row object.

export class IntList {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 16) {
    this.data = new Int32Array(Math.max(4, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  /** The filled part, without copying. Valid until the next push. */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** First position whose value is ≥ value, in an ascending list. */
export function lowerBound(list: ArrayLike<number>, value: number, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
