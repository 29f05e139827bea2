// receivedAt for events: deliveries arrive many per millisecond under load, and one ISO string
// per millisecond of the listener's clock will do.
import type { ListenerClock } from './clock.js';

export function receivedAtClock(clock: ListenerClock): () => string {
  let isoMs = -1;
  let iso = '';
  return () => {
    const t = clock.now();
    if (t !== isoMs) {
      isoMs = t;
      iso = new Date(t).toISOString();
    }
    return iso;
  };
}
