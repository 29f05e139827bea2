import { describe, expect, it } from 'vitest';
import { formatCount, formatLocal, formatRelative, formatRelativeShort, formatUntil, relativeEnglish } from '../../src/output/time.js';
import { formatDuration } from '../../src/client/retry-timing.js';
import { userZone } from '../../src/posts/zone.js';

const now = Date.parse('2026-12-01T09:00:00Z');
const at = (ms: number) => now + ms;
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('formatRelative reads like a person wrote it', () => {
  it.each([
    [-10 * S, 'just now'],
    [10 * S, 'in a few seconds'],
    [-50 * S, '1 minute ago'],
    [-5 * M, '5 minutes ago'],
    [30 * M, 'in 30 minutes'],
    [-50 * M, '1 hour ago'],
    [3 * H, 'in 3 hours'],
    [-33 * H, '1 day ago'],
    [8 * D, 'in 8 days'],
    [3 * D, 'in 3 days'],
    [-40 * D, '1 month ago'],
    [-61 * D, '2 months ago'],
    [400 * D, 'in 1 year'],
  ])('%i ms → %s', (delta, words) => {
    expect(formatRelative(at(delta), now)).toBe(words);
  });

  it('never says "33 h ago" or "in 8 d"', () => {
    for (let h = 1; h < 24 * 400; h += 7) {
      for (const sign of [-1, 1]) expect(formatRelative(at(sign * h * H), now)).toMatch(/^(in \d+ (minute|hour|day|month|year)s?|\d+ (minute|hour|day|month|year)s? ago)$/);
    }
  });

  it('keeps what it cannot read and prints nothing for nothing', () => {
    expect(formatRelative('not a time', now)).toBe('not a time');
    expect(formatRelative(undefined, now)).toBe('');
  });
});

describe('formatRelativeShort, for a narrow table', () => {
  it.each([
    [-10 * S, 'now'],
    [10 * S, 'in 1m'],
    [-5 * M, '5m'],
    [30 * M, 'in 30m'],
    [-50 * M, '1h'],
    [-33 * H, '1d'],
    [-61 * D, '2mo'],
    [-800 * D, '2y'],
  ])('%i ms → %s', (delta, words) => {
    expect(formatRelativeShort(at(delta), now)).toBe(words);
  });

  it('is never wider than 4 columns for the past, up to 99 years; keeps what it cannot read', () => {
    for (let h = 1; h < 24 * 400; h += 7) expect(formatRelativeShort(at(-h * H), now).length).toBeLessThanOrEqual(4);
    expect(formatRelativeShort('not a time', now)).toBe('not a time');
    expect(formatRelativeShort(undefined, now)).toBe('');
  });
});

describe('relativeEnglish', () => {
  it('says exactly what Intl.RelativeTimeFormat says in English, for every unit and count', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const counts = [1, 2, 3, 9, 10, 11, 21, 99, 100, 101, 999, 1000, 1001, 1234, 9999, 10000, 12345, 100000, 273790, 999999, 1000000];
    for (const unit of ['minute', 'hour', 'day', 'month', 'year'] as const) {
      for (const n of counts) {
        expect(relativeEnglish(n, unit)).toBe(intl.format(n, unit));
        expect(relativeEnglish(-n, unit)).toBe(intl.format(-n, unit));
      }
    }
  });
});

describe('formatCount', () => {
  it("groups whole numbers exactly as toLocaleString('en-US') does, without loading its locale data", () => {
    const counts = [0, -0, 1, 9, 10, 999, 1000, 1001, 12345, 100000, 999999, 1000000, 1234567, Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1.5, 1234.5678, NaN, Infinity];
    for (const n of [...counts, ...counts.map((c) => -c)]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('UTC without the zone data', () => {
  it('formatLocal in UTC says what Intl says, to the minute', () => {
    const intl = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
    const times = [0, Date.parse('2026-03-29T00:59:59.999Z'), Date.parse('2026-12-31T23:59:30Z'), Date.parse('1999-01-01T00:00:00Z'), Date.parse('9999-12-31T23:59:00Z'), 1_795_539_815_784];
    for (const t of times) {
      const p = Object.fromEntries(intl.formatToParts(t).map((x) => [x.type, x.value]));
      expect(formatLocal(t, 'UTC')).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`);
      expect(formatLocal(new Date(t).toISOString(), 'UTC')).toBe(formatLocal(t, 'UTC'));
    }
  });

  it('a TZ that names UTC (as servers and CI set it) is the zone UTC, as Intl names it', () => {
    for (const tz of ['UTC', 'Etc/UTC', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/UCT', 'UCT']) {
      expect(userZone({ TZ: tz }, undefined)).toBe(new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone);
    }
    expect(userZone({ TZ: 'Europe/Paris' }, undefined)).toBe('Europe/Paris');
    // No TZ: a /etc/localtime linked to UTC is UTC without asking Intl; any other link, or none, is
    // Intl's answer. The process's zone is set elsewhere, so the two answers differ.
    const linked = (target: string) => () => target;
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(userZone({}, undefined, linked('/usr/share/zoneinfo/Etc/UTC'))).toBe('UTC');
      expect(userZone({}, undefined, linked('/var/db/timezone/zoneinfo/UTC'))).toBe('UTC');
      expect(userZone({}, undefined, linked('/usr/share/zoneinfo/Europe/Paris'))).toBe('Asia/Tokyo');
      expect(userZone({}, undefined, () => { throw new Error('EINVAL'); })).toBe('Asia/Tokyo');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    // TZ set wins over the link.
    expect(userZone({ TZ: 'Europe/Paris' }, undefined, linked('/usr/share/zoneinfo/Etc/UTC'))).toBe('Europe/Paris');
    expect(userZone({ TZ: 'UTC' }, 'Asia/Tokyo')).toBe('Asia/Tokyo');
  });
});

describe('a wait, told', () => {
  it('formatDuration: minutes and hours within a day, then days (a Retry-After of 100 days is not "2400 h")', () => {
    expect(formatDuration(59 * M)).toBe('59 min');
    expect(formatDuration(23 * H + 59 * M)).toBe('23 h 59 min');
    expect(formatDuration(D)).toBe('1 day');
    expect(formatDuration(D + 5 * H + 10 * M)).toBe('1 day 5 h');
    expect(formatDuration(100 * D)).toBe('100 days');
    expect(formatDuration(366 * D + 3 * H)).toBe('366 days 3 h');
    // Past a year (a Retry-After of 1e20 s read "1,157,407,407,407,407 days"), the count says nothing.
    expect(formatDuration(367 * D)).toBe('more than a year');
    expect(formatDuration(1e23)).toBe('more than a year');
  });

  it('formatUntil: a clock time within a day, the date and zone beyond it', () => {
    expect(formatUntil(at(3 * H), now, 'Europe/Paris')).toBe('13:00');
    expect(formatUntil(at(D + H), now, 'Europe/Paris')).toMatch(/^2026-12-02 11:00 /);
    expect(formatUntil(at(D + H), now, 'Europe/Paris')).toBe(formatLocal(at(D + H), 'Europe/Paris'));
    expect(formatUntil(at(100 * D), now, 'UTC')).toBe('2027-03-11 09:00 UTC');
  });
});

describe('formatLocal names a zone as people write it', () => {
  it('CET/CEST in Europe, EST/PST in America, the offset where no short name exists', () => {
    const winter = Date.UTC(2026, 0, 5, 12);
    const summer = Date.UTC(2026, 6, 5, 12);
    expect(formatLocal(winter, 'Europe/Paris')).toBe('2026-01-05 13:00 CET');
    expect(formatLocal(summer, 'Europe/Berlin')).toBe('2026-07-05 14:00 CEST');
    expect(formatLocal(winter, 'America/New_York')).toBe('2026-01-05 07:00 EST');
    expect(formatLocal(summer, 'America/Los_Angeles')).toBe('2026-07-05 05:00 PDT');
    expect(formatLocal(summer, 'Europe/London')).toBe('2026-07-05 13:00 BST');
    expect(formatLocal(winter, 'Asia/Tokyo')).toBe('2026-01-05 21:00 GMT+9');
  });
});
