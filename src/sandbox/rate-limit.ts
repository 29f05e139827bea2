// A rolling one-hour window per workspace and kind (reads, writes), on the sandbox clock:
// a request counts when it is served, and a slot frees exactly an hour after it was taken.

export const HOUR_MS = 3_600_000;

export class RollingWindow {
  private hits: number[] = [];
  private head = 0;

  /** Told of every request counted (the database keeps the windows across restarts). */
  onTake: ((at: number) => void) | undefined;

  /** `counted`: times of requests a previous run counted (oldest first). */
  constructor(
    readonly limit: number,
    counted: readonly number[] = [],
    readonly windowMs = HOUR_MS,
  ) {
    this.hits = [...counted];
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.hits.length && this.hits[this.head]! <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.hits.length) {
      this.hits = this.hits.slice(this.head);
      this.head = 0;
    }
  }

  used(now: number): number {
    this.prune(now);
    return this.hits.length - this.head;
  }

  remaining(now: number): number {
    return Math.max(0, this.limit - this.used(now));
  }

  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  resetSeconds(now: number): number {
    this.prune(now);
    if (this.head >= this.hits.length) return 0;
    return Math.max(1, Math.ceil((this.hits[this.head]! + this.windowMs - now) / 1000));
  }

  /** Counts a request; false (and nothing counted) when the window is full. */
  take(now: number): boolean {
    if (this.used(now) >= this.limit) return false;
    this.hits.push(now);
    this.onTake?.(now);
    return true;
  }

  /** Whole seconds until a slot frees (at least 1). */
  retryAfterSeconds(now: number): number {
    return Math.max(1, this.resetSeconds(now));
  }
}
