import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { platforms, optionalWholeNumber as parseWholeNumber, splitList } from '../../src/cli/flags/index.js';
import { editDistance, suggestPlatform as nearestPlatform } from '../../src/wire/suggest.js';
import { formatCount } from '../../src/output/time.js';

const parsePlatformFlags = (values: string[]) => platforms('--platform', values);
import { footerText } from '../../src/output/results-footer.js';
import { assessResults, backoffMs, nextPollDelayMs, progressText, rateLimitSpacingMs, POLL } from '../../src/results/wait-state.js';
import { UsageError } from '../../src/cli/cli-error.js';
import { splitTimeouts } from '../../src/cli/commands/results/wait.js';
import { PLATFORMS } from '../../src/wire/platforms.js';
import type { PostResult } from '../../src/wire/schemas.js';

const ok = (id: string, platform?: string): PostResult => ({
  id,
  post_id: 'post_1',
  success: true,
  social_account_id: 'acc',
  platform_data: { id: 'p', url: `https://x/${id}`, username: 'u' },
  error: null,
  ...(platform ? { platform } : {}),
});
const bad = (id: string, platform?: string): PostResult => ({
  id,
  post_id: 'post_1',
  success: false,
  social_account_id: 'acc',
  platform_data: { id: 'p', url: null, username: 'u' },
  error: { code: 'MEDIA_REJECTED', message: 'too big', context: {} },
  ...(platform ? { platform } : {}),
});

describe('--platform validation', () => {
  it('accepts known ids in any case, repeated or comma-separated, without repeats', () => {
    expect(parsePlatformFlags(['Instagram', 'tiktok,twitter-x', 'instagram'])).toEqual(['instagram', 'tiktok', 'twitter-x']);
  });

  it.each([
    ['twitter', 'twitter-x'],
    ['x', 'twitter-x'],
    ['instagramm', 'instagram'],
    ['linkdin', 'linkedin'],
    ['facebook', 'facebook-page'],
    ['tiktk', 'tiktok'],
    ['twiter', 'twitter-x'],
    ['you-tube', 'youtube'],
    ['blue', 'bluesky'],
  ])('suggests the nearest id for %s', (typo, near) => {
    expect(nearestPlatform(typo)).toBe(near);
    expect(() => parsePlatformFlags([typo])).toThrow(UsageError);
    expect(() => parsePlatformFlags([typo])).toThrow(`--platform: "${typo}"`);
    expect(() => parsePlatformFlags([typo])).toThrow(expect.objectContaining({ exitCode: 2, hints: [`did you mean "${near}"?`, expect.stringMatching(/^platforms: /)] }));
  });

  it('suggests nothing for something far from every id, but lists them', () => {
    expect(nearestPlatform('myspace-classic')).toBeUndefined();
    expect(() => parsePlatformFlags(['myspace-classic'])).toThrow(UsageError);
    expect(() => parsePlatformFlags(['myspace-classic'])).toThrow(expect.objectContaining({ hints: [`platforms: ${PLATFORMS.join(', ')}`] }));
  });

  it('every id is its own nearest id, and edit distance is a metric on samples', () => {
    for (const p of PLATFORMS) expect(nearestPlatform(p)).toBe(p);
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it('splits lists and drops empties', () => {
    expect(splitList(['a,b', ' c ', '', 'a'])).toEqual(['a', 'b', 'c']);
  });
});

describe('whole numbers', () => {
  it('parses and bounds', () => {
    expect(parseWholeNumber('--limit', undefined)).toBeUndefined();
    expect(parseWholeNumber('--limit', '20', { min: 1 })).toBe(20);
    expect(parseWholeNumber('--offset', '1_000')).toBe(1000);
    expect(() => parseWholeNumber('--limit', '0', { min: 1 })).toThrow(/--limit: "0" is not a whole number 1 or more/);
    expect(() => parseWholeNumber('--concurrency', '17', { min: 1, max: 16 })).toThrow(/from 1 to 16/);
    expect(() => parseWholeNumber('--offset', '-3')).toThrow(UsageError);
    expect(() => parseWholeNumber('--offset', '2.5')).toThrow(UsageError);
    expect(() => parseWholeNumber('--offset', 'ten')).toThrow(UsageError);
  });

  it('formats counts with thousands separators', () => {
    expect(formatCount(4213)).toBe('4,213');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });
});

describe('footer', () => {
  it('says where the page sits and how to get the next', () => {
    expect(footerText({ offset: 0, shown: 20, scanned: 20, total: 4213, failedShown: 7, filter: undefined, all: false })).toBe(
      'showing 1–20 of 4,213 · 7 failed on this page · next: --offset 20 · --all for every row',
    );
    expect(footerText({ offset: 4200, shown: 13, scanned: 13, total: 4213, failedShown: 0, filter: undefined, all: false })).toBe(
      'showing 4,201–4,213 of 4,213 · none failed on this page',
    );
  });

  it('counts what was scanned when filtering while paging', () => {
    expect(footerText({ offset: 0, shown: 20, scanned: 734, total: 4213, failedShown: 20, filter: 'failed', all: false })).toBe(
      'showing 20 failed · scanned 1–734 of 4,213 · next: --offset 734 · --all for every row',
    );
  });

  it('handles empty lists and offsets past the end', () => {
    expect(footerText({ offset: 0, shown: 0, scanned: 0, total: 0, failedShown: 0, filter: undefined, all: false })).toBe('no results');
    expect(footerText({ offset: 50, shown: 0, scanned: 0, total: 10, failedShown: 0, filter: undefined, all: false })).toBe('no results after offset 50 (of 10)');
  });

  it('gives no next offset for --all', () => {
    expect(footerText({ offset: 0, shown: 5, scanned: 5, total: 9, failedShown: 1, filter: undefined, all: true })).toBe('showing 1–5 of 9 · 1 failed');
  });
});

describe('wait: which targets reported', () => {
  it('maps rows to target platforms and lists what is missing', () => {
    const s = assessResults([ok('r1', 'twitter-x'), bad('r2', 'instagram')], ['twitter-x', 'instagram', 'linkedin']);
    expect(s.reported).toBe(2);
    expect(s.expected).toBe(3);
    expect(s.missing).toEqual(['linkedin']);
    expect(s.failures.map((r) => r.id)).toEqual(['r2']);
    expect(s.done).toBe(false);
    expect(progressText(s, false)).toBe('2 of 3 platforms reported');
    const done = assessResults([ok('r1', 'twitter-x'), bad('r2', 'instagram'), ok('r3', 'linkedin')], ['twitter-x', 'instagram', 'linkedin']);
    expect(done.done).toBe(true);
    expect(done.missing).toEqual([]);
  });

  it('does not count a duplicate row or a platform outside the targets', () => {
    const s = assessResults([ok('r1', 'twitter-x'), ok('r1', 'twitter-x'), ok('r9', 'tiktok')], ['twitter-x', 'instagram']);
    expect(s.rows).toHaveLength(2);
    expect(s.reported).toBe(1);
    expect(s.done).toBe(false);
  });

  it('falls back to counting rows when rows carry no platform', () => {
    expect(assessResults([ok('r1')], ['twitter-x', 'instagram']).done).toBe(false);
    expect(assessResults([ok('r1'), ok('r2')], ['twitter-x', 'instagram']).done).toBe(true);
  });

  it('--expect N overrides the targets', () => {
    const s = assessResults([ok('r1', 'a'), ok('r2', 'b')], ['twitter-x'], 3);
    expect(s.expected).toBe(3);
    expect(s.done).toBe(false);
    expect(progressText(s, true)).toBe('2 of 3 results reported');
    // The noun agrees with the total.
    expect(progressText({ reported: 1, expected: 1 }, false)).toBe('1 of 1 platform reported');
    expect(progressText({ reported: 0, expected: 1 }, true)).toBe('0 of 1 result reported');
    expect(assessResults([ok('r1'), ok('r2'), ok('r3')], [], 3).done).toBe(true);
  });

  it('is never done with nothing to wait for', () => {
    expect(assessResults([], []).done).toBe(false);
  });
});

describe('wait: poll spacing', () => {
  it('backs off geometrically up to a cap', () => {
    expect(backoffMs(0)).toBe(POLL.firstMs);
    expect(backoffMs(1)).toBe(1600);
    for (let i = 1; i < 30; i++) expect(backoffMs(i)).toBeGreaterThanOrEqual(backoffMs(i - 1));
    expect(backoffMs(50)).toBe(POLL.maxMs);
  });

  it('keeps the normal cadence while the read budget has room, and slows only as it runs short', () => {
    expect(rateLimitSpacingMs(undefined, 0, 60_000)).toBe(0);
    // 99 of 100 left, an hour to the reset: a wait of 10 min at the 1 s cadence still polls every second.
    expect(nextPollDelayMs(0, { limit: 100, remaining: 99, resetSeconds: 3600 }, 60_000)).toBe(1000);
    // A whole 10 min wait at the backoff cadence (1 s growing to 15 s) takes under 60 polls: 89 usable is room.
    expect(rateLimitSpacingMs({ limit: 100, remaining: 99, resetSeconds: 3600 }, 0, 600_000)).toBe(0);
    // 20 left of 100 (10 kept back), 10 min to the reset: the 10 polls left are spread over 10 min.
    expect(rateLimitSpacingMs({ limit: 100, remaining: 20, resetSeconds: 600 }, 0, 3_600_000)).toBe(60_000);
    // In the last tenth: wait for the reset, unless told to spend it.
    expect(rateLimitSpacingMs({ limit: 100, remaining: 10, resetSeconds: 42 }, 0, 60_000)).toBe(42_000);
    expect(rateLimitSpacingMs({ limit: 100, remaining: 10, resetSeconds: 600 }, 0, 3_600_000, { spendReserve: true })).toBe(60_000);
    expect(nextPollDelayMs(0, { limit: 100, remaining: 0, resetSeconds: 42 }, 60_000)).toBe(42_000);
  });

  it('never sleeps past the deadline', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(1000), fc.nat(100_000), fc.nat(10_000_000), (attempt, remaining, reset, left) => {
        const d = nextPollDelayMs(attempt, { limit: 1000, remaining, resetSeconds: reset }, left);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(left);
      }),
    );
  });
});

describe('results wait: whose --timeout', () => {
  it('after `wait` it is the wait\'s own, before it the per-request limit; the last of each counts', () => {
    expect(splitTimeouts(['results', 'wait', '--post', 'p', '--timeout', '30m'])).toEqual({ wait: '30m' });
    expect(splitTimeouts(['--timeout', '10s', 'results', 'wait', '--post', 'p'])).toEqual({ request: '10s' });
    expect(splitTimeouts(['--timeout=5s', 'results', '--timeout', '10s', 'wait', '--timeout=1h', '--post', 'p', '--timeout', '2h'])).toEqual({ wait: '2h', request: '10s' });
    expect(splitTimeouts(['results', 'wait', '--post', 'p', '--', '--timeout', '1m'])).toEqual({});
    expect(splitTimeouts(undefined)).toEqual({});
  });
});
