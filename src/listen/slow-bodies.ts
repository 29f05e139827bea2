// Slow bodies: one sweep on the listener's clock over the bodies being read, oldest first (a
// Map keeps insertion order), instead of a timer per request, which costs more than it looks
// under load. A body still incomplete bodyTimeoutMs after its headers is answered 408.
import type { ServerResponse } from 'node:http';
import type { ListenerClock } from './clock.js';

export class SlowBodies {
  private readonly readingSince = new Map<ServerResponse, number>();
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
  started(res: ServerResponse): void {
    this.readingSince.set(res, this.clock.now());
  }

  /** The body is complete: true, unless the sweep already answered this request 408. */
  finished(res: ServerResponse): boolean {
    return this.readingSince.delete(res);
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
    for (const [res, since] of this.readingSince) {
      if (since > limit) break;
      this.readingSince.delete(res);
      // A client that already hung up gets no answer and is not counted.
      if (!res.socket || res.socket.destroyed) continue;
      res.req.pause();
      this.onTimeout(res);
    }
  }
}
