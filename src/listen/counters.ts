// What the listener has seen so far, for stats() and the command's summary.
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
