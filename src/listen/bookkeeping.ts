// What the listener keeps: counters for stats() and the command's summary, and the recently
// seen webhook ids, so that retried deliveries (same webhook-id) are answered 2xx but shown once.
import type { ListenerStats, RejectReason } from './types.js';

export class Counters {
  requests = 0;
  events = 0;
  duplicates = 0;
  filtered = 0;
  rejectedTotal = 0;
  forwarded = 0;
  forwardFailed = 0;
  private readonly rejected: Partial<Record<RejectReason, number>> = {};

  countRejected(reason: RejectReason): void {
    this.rejectedTotal++;
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }

  stats(forwardPending: number): ListenerStats {
    return {
      requests: this.requests,
      received: this.events + this.duplicates + this.filtered,
      events: this.events,
      duplicates: this.duplicates,
      filtered: this.filtered,
      rejected: { ...this.rejected },
      rejectedTotal: this.rejectedTotal,
      forwarded: this.forwarded,
      forwardFailed: this.forwardFailed,
      forwardPending,
    };
  }
}

/**
 * Recently seen webhook ids. Bounded: the oldest ids are forgotten first, so memory stays flat
 * on a listener that runs for days. The order of arrival is kept in a ring beside the Set,
 * rather than read from the Set's own order: a Set keeps a deleted entry's slot until it is
 * compacted, and values().next() walks every such slot from the start, so asking a full Set for
 * its oldest id cost up to a few hundred microseconds per delivery once the window was full.
 */
export class SeenIds {
  private readonly ids = new Set<string>();
  private readonly capacity: number;
  /** The ids in the order they arrived, oldest at `next` once the ring is full. */
  private readonly order: (string | undefined)[];
  private next = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity));
    this.order = new Array<string | undefined>(this.capacity).fill(undefined);
  }

  /** True when the id was already seen; otherwise records it and returns false. */
  checkAndAdd(id: string): boolean {
    // One lookup, not has() then add(): a Set that did not grow already held the id.
    const before = this.ids.size;
    if (this.ids.add(id).size === before) return true;
    if (this.capacity === 0) {
      this.ids.delete(id);
      return false;
    }
    const oldest = this.order[this.next];
    if (oldest !== undefined) this.ids.delete(oldest);
    this.order[this.next] = id;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}
