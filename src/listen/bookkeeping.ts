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
 * on a listener that runs for days.
 */
export class SeenIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  /** True when the id was already seen; otherwise records it and returns false. */
  checkAndAdd(id: string): boolean {
    // One lookup, not has() then add(): a Set that did not grow already held the id.
    const before = this.ids.size;
    if (this.ids.add(id).size === before) return true;
    if (this.ids.size > this.capacity) {
      // A Set iterates in insertion order, so the first entry is the oldest.
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}
