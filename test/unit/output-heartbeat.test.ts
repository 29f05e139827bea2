// The progress line of a run without a terminal: once per 30 s of the run's clock, never more
// often however often it is asked, with the last status, and nothing once stopped.
import { describe, expect, it } from 'vitest';
import { createHeartbeat } from '../../src/output/heartbeat.js';

describe('heartbeat', () => {
  it('writes at most once per 30 s of the clock, with the elapsed time and the status', () => {
    let now = 1_000_000;
    const lines: string[] = [];
    const beat = createHeartbeat({ write: (l) => lines.push(l), now: () => now, label: 'socialpub results wait' });
    beat.check();
    now += 29_999;
    beat.check();
    expect(lines).toEqual([]);
    beat.status('1 of 3 platforms reported');
    now += 1;
    beat.check();
    beat.check();
    now += 95_000;
    beat.check();
    beat.stop();
    now += 60_000;
    beat.check();
    expect(lines).toEqual(['socialpub results wait: still running after 30s · 1 of 3 platforms reported', 'socialpub results wait: still running after 2 min 5s · 1 of 3 platforms reported']);
  });
});
