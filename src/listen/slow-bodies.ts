// Slow bodies: one sweep on the listener's clock over the bodies being read, instead of a timer
// per request, which costs more than it looks under load. A body still incomplete
// bodyTimeoutMs after its headers is answered 408. Each body is a small record in a list the
// sweep compacts (no hashing of the response object, which showed in profiles).
import type { ServerResponse } from 'node:http';
import type { ListenerClock } from './clock.js';

/** A body being read: its response until the body completes or times out, and when it started. */
export interface Reading {
  res: ServerResponse | undefined;
  readonly since: number;
}

export class SlowBodies {
  private readonly reading: Reading[] = [];
  private cancel: () => void = () => {};
  private stopped = false;
  private readonly intervalMs: number;

  constructor(
    private readonly clock: ListenerClock,
    private readonly timeoutMs: number,
    private readonly onTimeout: (res: ServerResponse) => void,
  ) {
    this.intervalMs = Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4)));
    this.arm();
  }

  /** The headers are in; the body's time starts now. */
  started(res: ServerResponse): Reading {
    const r: Reading = { res, since: this.clock.now() };
    this.reading.push(r);
    return r;
  }

  /** The body is complete: true, unless the sweep already answered this request 408. */
  finished(r: Reading): boolean {
    if (r.res === undefined) return false;
    r.res = undefined;
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private arm(): void {
    this.cancel = this.clock.after(this.intervalMs, () => {
      if (this.stopped) return;
      this.sweep();
      this.arm();
    });
  }

  private sweep(): void {
    const limit = this.clock.now() - this.timeoutMs;
    const list = this.reading;
    let kept = 0;
    for (const r of list) {
      const res = r.res;
      if (res === undefined) continue;
      if (r.since > limit) {
        list[kept++] = r;
        continue;
      }
      r.res = undefined;
      // A client that already hung up gets no answer and is not counted.
      if (!res.socket || res.socket.destroyed) continue;
      res.req.pause();
      this.onTimeout(res);
    }
    list.length = kept;
  }
}
