// posts queue as a terminal shows it: no line wider than the terminal, and the summary line under
// the days keeps its times whole when the zone's name does not fit beside them.
import { describe, expect, it } from 'vitest';
import { renderQueue } from '../../src/cli/commands/posts/queue.run.js';
import { plainColors } from '../../src/output/colors.js';
import { displayWidth } from '../../src/output/width.js';
import type { QueueData } from '../../src/posts/queue.js';

const data = (posts: number): QueueData => ({
  zone: 'America/New_York',
  from: '2026-11-24T22:06:00.000Z',
  to: '2026-11-25T08:06:00.000Z',
  total: posts,
  shown: posts,
  days:
    posts === 0
      ? []
      : [{ date: '2026-11-24', weekday: 'Tue', posts: Array.from({ length: posts }, (_, i) => ({ id: `post_${i}`, scheduledAt: '2026-11-25T00:01:00.000Z', time: '19:01', platforms: ['twitter-x', 'threads'], title: null, text: `Tip #${i}: 用 emoji 🎉 and عربي text that is fairly long` })) }],
});

describe('renderQueue', () => {
  it('at 60 columns the summary drops the zone name rather than cutting it to "(…"', () => {
    const lines = renderQueue(data(3), 60, plainColors).split('\n');
    expect(lines).toHaveLength(1 + 3 + 1);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines.at(-1)).toBe('3 scheduled · 2026-11-24 17:06 EST → 2026-11-25 03:06 EST');
    const empty = renderQueue(data(0), 60, plainColors);
    expect(empty).not.toContain('(…');
    expect(displayWidth(empty)).toBeLessThanOrEqual(60);
  });

  it('with room, the zone name stays', () => {
    expect(renderQueue(data(3), 120, plainColors).split('\n').at(-1)).toBe('3 scheduled · 2026-11-24 17:06 EST → 2026-11-25 03:06 EST (America/New_York)');
    expect(renderQueue(data(0), 120, plainColors)).toBe('nothing scheduled from 2026-11-24 17:06 EST → 2026-11-25 03:06 EST (America/New_York)');
  });
});
