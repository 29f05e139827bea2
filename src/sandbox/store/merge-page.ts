// A page of the newest-first union of several ascending, disjoint lists of row positions
// (one per filter value), without walking the rows before the page: the first row of the
// page is found by binary search over positions, then the lists are merged for `limit` rows.
// Cost: O(k·log²n + limit·k) for k lists, whatever the offset.
import { lowerBound } from './int-list.js';

export interface MergedPage {
  total: number;
  /** Row positions, newest (largest) first. */
  rows: number[];
}

export function mergedPageDescending(lists: ArrayLike<number>[], offset: number, limit: number): MergedPage {
  let total = 0;
  let max = -1;
  for (const l of lists) {
    total += l.length;
    if (l.length && l[l.length - 1]! > max) max = l[l.length - 1]!;
  }
  const rows: number[] = [];
  if (offset >= total || limit <= 0) return { total, rows };

  if (lists.length === 1) {
    const l = lists[0]!;
    for (let i = l.length - 1 - offset; i >= 0 && rows.length < limit; i--) rows.push(l[i]!);
    return { total, rows };
  }

  // How many rows sit at position ≥ v, across every list.
  const countFrom = (v: number) => {
    let n = 0;
    for (const l of lists) n += l.length - lowerBound(l, v);
    return n;
  };
  // The largest v with countFrom(v) > offset is the first row of the page.
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (countFrom(mid) > offset) lo = mid;
    else hi = mid - 1;
  }
  const cursor = lists.map((l) => lowerBound(l, lo + 1) - 1);
  while (rows.length < limit) {
    let best = -1;
    let bestList = -1;
    for (let k = 0; k < lists.length; k++) {
      const i = cursor[k]!;
      if (i >= 0 && lists[k]![i]! > best) {
        best = lists[k]![i]!;
        bestList = k;
      }
    }
    if (bestList < 0) break;
    rows.push(best);
    cursor[bestList]!--;
  }
  return { total, rows };
}
