import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  barWidth,
  colorBar,
  createStatsCounter,
  failureRate,
  formatRate,
  GLYPH_BAR,
  statsBar,
  eachDisplayRow,
  statsRows,
  statsSummary,
} from '../../src/results/stats.js';
import { computeStats } from '../helpers/stats.js';
import { formatCount } from '../../src/output/time.js';

type R = { success: boolean; platform?: string; error?: { code: string; message: string } | null; social_account_id?: string | null; post_id: string };
const ok = (platform: string, post = 'post_1', account: string | null = 'acc_1'): R => ({ success: true, platform, post_id: post, social_account_id: account, error: null });
const bad = (platform: string, code: string, post = 'post_1', account: string | null = 'acc_1'): R => ({ success: false, platform, post_id: post, social_account_id: account, error: { code, message: code } });

const rows: R[] = [
  ok('instagram'),
  bad('instagram', 'MEDIA_REJECTED'),
  bad('instagram', 'TOKEN_EXPIRED', 'post_2'),
  ok('twitter-x', 'post_2', 'acc_2'),
  bad('twitter-x', 'RATE_LIMITED', 'post_3', null),
  ok('bluesky', 'post_3'),
  ok('bluesky', 'post_3'),
  { success: false, post_id: 'post_4', platform: 'threads' },
];

async function* stream<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}


const displayRows = (...args: Parameters<typeof eachDisplayRow>) => [...eachDisplayRow(...args)];
describe('stats', () => {
  it('groups by platform by default, sorted by failures then key', async () => {
    const s = await computeStats(stream(rows));
    expect(s).toEqual({
      total: 8,
      succeeded: 4,
      failed: 4,
      groups: [
        { key: 'instagram', total: 3, succeeded: 1, failed: 2 },
        { key: 'threads', total: 1, succeeded: 0, failed: 1 },
        { key: 'twitter-x', total: 2, succeeded: 1, failed: 1 },
        { key: 'bluesky', total: 2, succeeded: 2, failed: 0 },
      ],
    });
  });

  it('by code: successes are their own key, a failure without error has "(no code)"', async () => {
    const s = await computeStats(rows, 'code');
    expect(s.groups.map((g) => [g.key, g.total])).toEqual([
      ['(no code)', 1],
      ['MEDIA_REJECTED', 1],
      ['RATE_LIMITED', 1],
      ['TOKEN_EXPIRED', 1],
      ['(succeeded)', 4],
    ]);
  });

  it('by account and by post', async () => {
    const byAccount = await computeStats(rows, 'account');
    expect(byAccount.groups.map((g) => `${g.key}:${g.succeeded}/${g.failed}`)).toEqual(['(no account):0/2', 'acc_1:3/2', 'acc_2:1/0']);
    const byPost = await computeStats(rows, 'post');
    expect(byPost.groups.map((g) => `${g.key}:${g.total}`)).toEqual(['post_1:2', 'post_2:2', 'post_3:3', 'post_4:1']);
  });

  it('the rows tied to no account are no one account: their group names no platform or handle', async () => {
    const named = (platform: string, username: string): R & { platform_data: { username: string } } => ({ ...ok(platform, 'post_9', null), platform_data: { username } });
    const loose = [named('linkedin', 'acme-li'), named('bluesky', 'acme.bsky.social'), { ...ok('instagram', 'post_9', 'acc_7'), platform_data: { username: 'acme.ig' } }];
    for (const by of ['account', ['account', 'code']] as const) {
      const s = await computeStats(loose, by);
      const none = s.groups.find((g) => g.key.startsWith('(no account)'))!;
      expect(none.total).toBe(2);
      expect(none.platform).toBeUndefined();
      expect(none.username).toBeUndefined();
      expect(s.groups.find((g) => g.key.startsWith('acc_7'))).toMatchObject({ platform: 'instagram', username: 'acme.ig' });
    }
  });

  it('every total is the sum of its groups', async () => {
    for (const by of ['platform', 'code', 'account', 'post'] as const) {
      const s = await computeStats(rows, by);
      expect(s.groups.reduce((n, g) => n + g.total, 0)).toBe(s.total);
      expect(s.groups.reduce((n, g) => n + g.failed, 0)).toBe(s.failed);
      for (const g of s.groups) expect(g.succeeded + g.failed).toBe(g.total);
    }
  });

  it('keeps one entry per group however many rows stream through', () => {
    const c = createStatsCounter('platform');
    for (let i = 0; i < 200_000; i++) c.add(i % 7 === 0 ? bad(i % 2 ? 'instagram' : 'tiktok', 'X') : ok('instagram'));
    const s = c.result();
    expect(s.total).toBe(200_000);
    expect(s.groups).toHaveLength(2);
    expect(s.failed).toBe(Math.ceil(200_000 / 7));
  });

  it('by day and code: days in order, and within a day failures most first, successes last', async () => {
    const at = (r: R, day: string) => ({ ...r, created_at: `${day}T10:00:00Z` });
    const s = await computeStats(
      stream([
        at(ok('bluesky'), '2026-11-24'),
        at(bad('bluesky', 'TOKEN_EXPIRED'), '2026-11-24'),
        at(bad('bluesky', 'API_RATE_LIMIT'), '2026-11-24'),
        at(bad('bluesky', 'API_RATE_LIMIT'), '2026-11-24'),
        at(bad('bluesky', 'ZZ_ONE'), '2026-11-23'),
        at(ok('bluesky'), '2026-11-23'),
        at(ok('bluesky'), '2026-11-23'),
      ]),
      ['day', 'code'],
    );
    expect(s.groups.map((g) => g.key)).toEqual(['2026-11-23,ZZ_ONE', '2026-11-23,(succeeded)', '2026-11-24,API_RATE_LIMIT', '2026-11-24,TOKEN_EXPIRED', '2026-11-24,(succeeded)']);
  });

  it('no rows: zero totals and no groups', async () => {
    const s = await computeStats([]);
    expect(s).toEqual({ total: 0, succeeded: 0, failed: 0, groups: [] });
    expect(statsSummary(s, formatCount)).toBe('0 results: 0 succeeded, 0 failed (0%)');
  });

  it('failure rates and their text', async () => {
    expect(failureRate({ total: 8, failed: 1 })).toBe(0.125);
    expect(failureRate({ total: 0, failed: 0 })).toBe(0);
    expect([0, 0.0123, 0.125, 0.5, 1].map(formatRate)).toEqual(['0%', '1.2%', '13%', '50%', '100%']);
    const s = await computeStats(rows);
    expect(statsRows(s)[0]).toEqual({ key: 'instagram', total: 3, succeeded: 1, failed: 2, failure_rate: 2 / 3, failure_share: 2 / s.failed });
    expect(statsSummary({ total: 1204, succeeded: 1080, failed: 124, groups: [] }, formatCount)).toBe('1,204 results: 1,080 succeeded, 124 failed (10%)');
  });
});

describe('statsBar', () => {
  it('splits exactly `width` cells in proportion, with two glyphs', () => {
    expect(statsBar(3, 1, 8)).toBe('██████░░');
    expect(statsBar(10, 0, 5)).toBe('█████');
    expect(statsBar(0, 4, 4)).toBe('░░░░');
    expect(statsBar(1, 1, 7)).toHaveLength(7);
  });
  it('a rare failure or a rare success still gets a cell', () => {
    expect(statsBar(9999, 1, 10)).toBe('█████████░');
    expect(statsBar(1, 9999, 10)).toBe('█░░░░░░░░░');
  });
  it('empty for no width or no rows', () => {
    expect(statsBar(0, 0, 10)).toBe('');
    expect(statsBar(5, 5, 0)).toBe('');
  });
  it('paints two colours of one glyph', () => {
    const style = colorBar((s) => `<g>${s}</g>`, (s) => `<r>${s}</r>`);
    expect(statsBar(1, 1, 4, style)).toBe('<g>██</g><r>██</r>');
    expect(statsBar(2, 0, 3, style)).toBe('<g>███</g>');
    expect(statsBar(2, 1, 3, GLYPH_BAR)).toBe('██░');
  });
  it('scales bars to the largest group', () => {
    expect(barWidth(50, 100, 20)).toBe(10);
    expect(barWidth(1, 100_000, 20)).toBe(1);
    expect(barWidth(0, 100, 20)).toBe(0);
    expect(barWidth(100, 100, 20)).toBe(20);
  });
});

describe('statsDisplayRows', () => {
  it('gives each group its rate text and a bar scaled to the largest group', async () => {
    const s = await computeStats(rows);
    const display = displayRows(s, { barWidth: 12 });
    expect(display.map((d) => [d.key, d.rate, d.bar])).toEqual([
      ['instagram', '67%', '████░░░░░░░░'],
      ['threads', '100%', '░░░░'],
      ['twitter-x', '50%', '████░░░░'],
      ['bluesky', '0%', '████████'],
    ]);
  });
});

describe('stats at scale', () => {
  it('draws 200,000 groups (one per post) without overflowing the call stack', () => {
    const counter = createStatsCounter('post');
    for (let i = 0; i < 200_000; i++) counter.add(i % 7 === 0 ? bad('x', 'E', `post_${i}`) : ok('x', `post_${i}`));
    const stats = counter.result();
    expect(stats.groups).toHaveLength(200_000);
    const shown = displayRows(stats, { barWidth: 10 });
    expect(shown).toHaveLength(200_000);
    // Every group has one row, so each bar is the largest: the full width.
    expect(shown[0]!.bar).toBe('░'.repeat(10));
    expect(shown[199_999]!.bar).toBe('█'.repeat(10));
  });
});

describe('bars: every group visible', () => {
  it('a group with 1 result beside one with 1,000,000 still gets a mark, in its own colour part', () => {
    const shown = displayRows(
      { total: 1_000_002, succeeded: 999_999, failed: 3, groups: [
        { key: 'big', total: 1_000_000, succeeded: 999_998, failed: 2 },
        { key: 'tiny-ok', total: 1, succeeded: 1, failed: 0 },
        { key: 'tiny-bad', total: 1, succeeded: 0, failed: 1 },
      ] },
      { barWidth: 20 },
    );
    expect(shown[0]!.bar).toHaveLength(20);
    expect(shown[0]!.bar).toContain('░');
    expect(shown[1]!.bar).toBe('█');
    expect(shown[2]!.bar).toBe('░');
  });
});

describe('Intl only where a zone is needed', () => {
  afterEach(() => vi.restoreAllMocks());
  /** Counts the formatters made, each still a real one. */
  const countFormatters = () => {
    const Real = Intl.DateTimeFormat;
    return vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Real>) {
      return new Real(...args);
    });
  };

  it('counting by platform and code makes no Intl date formatter (its first one loads the locale data)', () => {
    const made = countFormatters();
    const counter = createStatsCounter(['platform', 'code']);
    for (const r of rows) counter.add({ ...r, created_at: '2026-11-24T10:00:00Z' });
    expect(statsSummary(counter.result(), formatCount)).toBe('8 results: 4 succeeded, 4 failed (50%)');
    expect(made).not.toHaveBeenCalled();
  });

  it('counting by day makes one formatter for its zone, on the first row', () => {
    const made = countFormatters();
    const counter = createStatsCounter('day', { zone: 'Asia/Tokyo' });
    expect(made).not.toHaveBeenCalled();
    counter.add({ ...ok('bluesky'), created_at: '2026-11-24T20:00:00Z' });
    counter.add({ ...ok('bluesky'), created_at: '2026-11-24T10:00:00Z' });
    expect(counter.result().groups.map((g) => g.key).sort()).toEqual(['2026-11-24', '2026-11-25']);
    expect(made).toHaveBeenCalledTimes(1);
  });
});
