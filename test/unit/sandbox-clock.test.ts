// The manual clock: timers run in time order at their own instant, their work is awaited, and
// timers they set inside the window run too.
import { describe, expect, it } from 'vitest';
import { createManualClock, onTimerError, systemClock } from '../../src/sandbox/clock.js';

describe('createManualClock', () => {
  it('runs due timers in order, each at its own time, including ones scheduled on the way', async () => {
    const clock = createManualClock(1000);
    const log: string[] = [];
    clock.setTimer(1300, () => log.push(`c@${clock.now()}`));
    clock.setTimer(1100, async () => {
      await new Promise((r) => setTimeout(r, 5));
      log.push(`a@${clock.now()}`);
      clock.setTimer(clock.now() + 100, () => log.push(`b@${clock.now()}`));
    });
    const cancelled = clock.setTimer(1150, () => log.push('never'));
    cancelled();
    clock.setTimer(5000, () => log.push('later'));
    await clock.advance(500);
    expect(log).toEqual(['a@1100', 'b@1200', 'c@1300']);
    expect(clock.now()).toBe(1500);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('serialises advances and keeps going after a failing timer, which it reports', async () => {
    const reported: unknown[] = [];
    const previous = onTimerError((err) => reported.push(err));
    try {
      const clock = createManualClock(0);
      const log: number[] = [];
      clock.setTimer(10, () => {
        throw new Error('boom');
      });
      clock.setTimer(20, () => log.push(clock.now()));
      await Promise.all([clock.advance(15), clock.advance(15)]);
      expect(log).toEqual([20]);
      expect(clock.now()).toBe(30);
      expect(reported).toEqual([new Error('boom')]);
      await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    } finally {
      onTimerError(previous);
    }
  });

  it('reports a failing timer of the system clock instead of hiding it', async () => {
    const reported: unknown[] = [];
    const previous = onTimerError((err) => reported.push(err));
    try {
      const failed = new Promise<void>((resolve) => {
        systemClock.setTimer(systemClock.now(), () => {
          resolve();
          return Promise.reject(new Error('publish failed'));
        });
      });
      await failed;
      await new Promise((r) => setImmediate(r));
      expect(reported).toEqual([new Error('publish failed')]);
    } finally {
      onTimerError(previous);
    }
  });

  it('offers sleep() that resolves when time is advanced past it, and aborts', async () => {
    const clock = createManualClock(0);
    let woke = false;
    const sleeping = clock.sleep(100).then(() => (woke = true));
    await clock.advance(99);
    expect(woke).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
    const controller = new AbortController();
    const aborted = clock.sleep(100, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pendingTimers()).toBe(0);
  });
});
