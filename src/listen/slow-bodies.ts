// Slow bodies: one sweep on the listener's clock over the bodies being read, instead of a timer
// per request, which costs more than it looks under load. A body still incomplete
// bodyTimeoutMs after its headers is answered 408. Each body is a small record in a list (no
// hashing of the response object, which showed in profiles); a completed body leaves the list at
// once (the last record takes its place), so the list holds only the bodies in flight and each
// record dies young. (Left for the sweep, some 10,000 records a second lived to be promoted by
// the garbage collector under load.)
import type { ServerResponse } from 'node:http';
import type { ListenerClock } from './clock.js';

/** A body being read: its response until the body completes or times out, and when it started. */
export interface Reading {
  res: ServerResponse | undefined;
  readonly since: number;
  /** Where it is in the list while the body is being read. */
  at: number;
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
    const list = this.reading;
    const r: Reading = { res, since: this.clock.now(), at: list.length };
    list.push(r);
    return r;
  }

  /** The body is complete: true, unless the sweep already answered this request 408. */
  finished(r: Reading): boolean {
    if (r.res === undefined) return false;
    r.res = undefined;
    this.remove(r);
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

  private remove(r: Reading): void {
    const list = this.reading;
    const last = list.pop()!;
    if (last !== r) {
      list[r.at] = last;
      last.at = r.at;
    }
  }

  private sweep(): void {
    const limit = this.clock.now() - this.timeoutMs;
    // Backwards, so that a removal moves only records already looked at.
    for (let i = this.reading.length - 1; i >= 0; i--) {
      const r = this.reading[i]!;
      if (r.since > limit) continue;
      const res = r.res!;
      r.res = undefined;
      this.remove(r);
      // A client that already hung up gets no answer and is not counted.
      if (!res.socket || res.socket.destroyed) continue;
      res.req.pause();
      this.onTimeout(res);
    }
  }
}
