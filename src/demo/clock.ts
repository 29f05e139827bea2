// The demo's time: one manual clock for the sandbox, the listener and the commands the demo
// runs. A command's sleep (results wait polling) moves it forward at once, publishing what falls
// due, so the demo never waits for real and the timestamps it shows still read as real ones.
import type { ManualClock } from '../sandbox/index.js';
import type { ListenerClock } from '../listen/index.js';

/** A command's clock on a manual clock: every sleep advances it (and is recorded in `slept`). */
export function advancingClock(clock: ManualClock, slept: number[] = []): Pick<ListenerClock, 'now' | 'sleep'> {
  return {
    now: () => clock.now(),
    async sleep(ms, signal) {
      if (signal?.aborted) throw Object.assign(new Error('interrupted'), { name: 'AbortError' });
      slept.push(ms);
      await clock.advance(ms);
    },
  };
}

/**
 * The listener's clock on the same manual clock: its deadlines pass only as the clock moves; its
 * pauses (forward backoff) move it, like a command's.
 */
export function listenerClockOn(clock: ManualClock, slept: number[] = []): ListenerClock {
  return {
    now: () => clock.now(),
    sleep: advancingClock(clock, slept).sleep,
    after: (ms, fn) => clock.setTimer(clock.now() + ms, fn),
  };
}
