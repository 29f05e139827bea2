// The listener's clock on a sandbox's manual clock: deadlines (slow bodies, forward timeouts,
// the close grace) fire only when the test advances time; sleeps (forward backoff) move time
// forward at once and are recorded. No test of the listener sleeps for real.
import type { ManualClock } from '../../src/sandbox/clock.js';

export { listenerClockOn as manualListenerClock } from '../../src/demo/clock.js';

/** Waits, turn by turn of the event loop (no timer), until I/O has made `ready` true. */
export async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Closes while advancing time, so a close that waits on the clock (a forward's grace) ends. */
export async function closeAdvancing(close: () => Promise<void>, manual: ManualClock, stepMs = 1000): Promise<void> {
  let done = false;
  const closing = close().finally(() => {
    done = true;
  });
  while (!done) await manual.advance(stepMs);
  await closing;
}
