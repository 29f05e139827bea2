// The slow-body sweep (src/listen/slow-bodies.ts): completed bodies leave its list at once, in
// any order, and the sweep answers exactly the bodies still incomplete after the deadline.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ListenerClock } from '../../src/listen/clock.js';
import { SlowBodies } from '../../src/listen/slow-bodies.js';

/** A clock whose deadlines fire only when the test moves time on. */
function steppedClock() {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void }> = [];
  const clock: ListenerClock = {
    now: () => now,
    sleep: () => Promise.resolve(),
    after(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (;;) {
      const due = timers.find((t) => t.at <= now);
      if (!due) return;
      timers = timers.filter((t) => t !== due);
      due.fn();
    }
  };
  return { clock, advance };
}

function fakeResponse(name: string, connected = true) {
  const paused: string[] = [];
  const res = { name, socket: { destroyed: !connected }, req: { pause: () => paused.push(name) } };
  return { res: res as unknown as ServerResponse, paused };
}

describe('SlowBodies', () => {
  it('finished bodies, in any order, are never answered; the ones still open at the deadline are, once each', () => {
    const { clock, advance } = steppedClock();
    const timedOut: string[] = [];
    const bodies = new SlowBodies(clock, 1000, (res) => timedOut.push((res as unknown as { name: string }).name));
    const all = Array.from({ length: 12 }, (_, i) => {
      const { res } = fakeResponse(`body-${i}`);
      return { name: `body-${i}`, reading: bodies.started(res) };
    });
    // Finished out of order: last, first, a middle one, and so on; every other one stays open.
    for (const i of [11, 0, 6, 2, 9, 4]) expect(bodies.finished(all[i]!.reading)).toBe(true);
    advance(500);
    const late = bodies.started(fakeResponse('late').res);
    advance(700); // past the deadline of the first twelve, not of the late one
    expect(timedOut.sort()).toEqual(['body-1', 'body-10', 'body-3', 'body-5', 'body-7', 'body-8']);
    // A body the sweep answered is not finished again; a finished one is not finished twice.
    expect(bodies.finished(all[1]!.reading)).toBe(false);
    expect(bodies.finished(all[0]!.reading)).toBe(false);
    expect(bodies.finished(late)).toBe(true);
    advance(5000);
    expect(timedOut).toHaveLength(6);
    bodies.stop();
  });

  it('a body whose client hung up is dropped without an answer', () => {
    const { clock, advance } = steppedClock();
    const timedOut: unknown[] = [];
    const bodies = new SlowBodies(clock, 100, (res) => timedOut.push(res));
    const gone = fakeResponse('gone', false);
    const open = fakeResponse('open');
    bodies.started(gone.res);
    bodies.started(open.res);
    advance(200);
    expect(timedOut).toEqual([open.res]);
    expect(open.paused).toEqual(['open']);
    expect(gone.paused).toEqual([]);
    bodies.stop();
  });
});
