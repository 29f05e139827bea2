// The CLI's clock on a sandbox's manual clock: a sleep moves sandbox time forward (publishing
// what falls due), so tests of waits and retries never sleep for real.
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { Clock } from '../../src/cli/context.js';

export function advancingClock(clock: ManualClock, slept: number[] = []): Clock {
  return {
    now: () => clock.now(),
    async sleep(ms, signal) {
      if (signal?.aborted) throw Object.assign(new Error('interrupted'), { name: 'AbortError' });
      slept.push(ms);
      await clock.advance(ms);
    },
  };
}
