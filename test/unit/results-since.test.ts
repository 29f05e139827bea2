import { describe, expect, it } from 'vitest';
import { MissingEventTimeError, parseBound, parseWindow, seekUntil, selectWindow, TimeInputError } from '../../src/results/since.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const opts = (field = '--since', zone = 'UTC') => ({ now: NOW, zone, field });

describe('parseBound', () => {
  it.each([
    ['48h', NOW - 48 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['90m', NOW - 90 * 60_000],
    ['1d12h', NOW - 36 * 3_600_000],
    ['1w', NOW - 7 * 86_400_000],
    ['30s', NOW - 30_000],
    ['48h ago', NOW - 48 * 3_600_000],
    ['2 days', NOW - 2 * 86_400_000],
    ['1 day 3 hours', NOW - 27 * 3_600_000],
    ['30 minutes ago', NOW - 30 * 60_000],
    ['1hour', NOW - 3_600_000],
    ['2 hrs 15 mins', NOW - 135 * 60_000],
    ['1 week', NOW - 7 * 86_400_000],
    ['90 seconds', NOW - 90_000],
    ['2d AGO', NOW - 2 * 86_400_000],
    ['2026-11-20T08:00:00Z', Date.parse('2026-11-20T08:00:00Z')],
    ['2026-11-20 08:00 UTC', Date.parse('2026-11-20T08:00:00Z')],
    ['2026-11-20T08:00:00.250+01:00', Date.parse('2026-11-20T07:00:00.250Z')],
  ])('reads %s', (input, expected) => {
    expect(parseBound(input, opts())).toBe(expected);
  });

  it('reads a local date as its midnight in the zone, and a date and time in the zone', () => {
    expect(parseBound('2026-11-20', opts('--since', 'Europe/Paris'))).toBe(Date.parse('2026-11-19T23:00:00Z'));
    expect(parseBound('2026-07-20', opts('--since', 'Europe/Paris'))).toBe(Date.parse('2026-07-19T22:00:00Z'));
    expect(parseBound('2026-11-20 09:30', opts('--until', 'America/New_York'))).toBe(Date.parse('2026-11-20T14:30:00Z'));
  });

  it('takes a time as posts view prints it ("2026-11-20 08:00 UTC") as UTC, whatever --tz says', () => {
    expect(parseBound('2026-11-20 08:00 UTC', opts('--since', 'Europe/Paris'))).toBe(Date.parse('2026-11-20T08:00:00Z'));
    expect(parseBound('2026-11-20 08:00', opts('--since', 'Europe/Paris'))).toBe(Date.parse('2026-11-20T07:00:00Z'));
  });

  it('starts a day whose midnight is skipped when its clocks start (America/Santiago, 6 Sep 2026)', () => {
    // Chile moves from -04 to -03 at local midnight on the first Sunday of September.
    const t = parseBound('2026-09-06', opts('--since', 'America/Santiago'));
    expect(new Date(t).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it.each([
    ['', /--since is empty/],
    ['48', /--since: "48" has no unit/],
    ['last week', /--since: "last week" is not a time I can read/],
    ['0h', /no time back from now/],
    ['2026-02-30', /not a real date/],
    ['2026-11-20 25:00', /not a real date and time/],
    ['+2h', /not a time I can read/],
    ['1 ms', /not a time I can read/],
    ['2 months', /not a time I can read/],
  ])('refuses %j naming the flag', (input, message) => {
    const e = (() => {
      try {
        parseBound(input, opts());
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(TimeInputError);
    expect((e as TimeInputError).field).toBe('--since');
    expect((e as Error).message).toMatch(message);
  });

  it('a bare 0 is told to use a positive amount, not 0h (which is refused too)', () => {
    const hintOf = (input: string) => {
      try {
        parseBound(input, opts());
      } catch (err) {
        return (err as { hint?: string }).hint;
      }
      return undefined;
    };
    expect(hintOf('0')).toBe('use a positive amount with a unit, such as 48h or 7d');
    expect(hintOf('48')).toBe('write 48h, 48d or 48m');
  });

  it.each(['9999999999d', '99999999999999999999999999w'])('a duration %s reaching back before 1970 is invalid input, not a crash', (input) => {
    expect(() => parseBound(input, opts('--until'))).toThrow(TimeInputError);
    expect(() => parseBound(input, opts('--until'))).toThrow(/--until: ".+" reaches back before 1970/);
  });

  it('refuses an unknown zone with a suggestion, naming --tz', () => {
    expect(() => parseBound('2026-11-20', opts('--since', 'Europe/Pariss'))).toThrow(/--tz: "Europe\/Pariss" is not a known time zone/);
  });

  it('refuses a local time skipped by daylight saving time', () => {
    expect(() => parseBound('2026-03-29 02:30', opts('--until', 'Europe/Paris'))).toThrow(/--until: 2026-03-29 02:30 does not exist in Europe\/Paris/);
  });
});

describe('parseWindow', () => {
  it('returns both ends', () => {
    expect(parseWindow({ since: '48h', until: '24h', now: NOW, zone: 'UTC' })).toEqual({ since: NOW - 48 * 3_600_000, until: NOW - 24 * 3_600_000 });
    expect(parseWindow({ now: NOW, zone: 'UTC' })).toEqual({});
  });
  it('refuses --since after --until, and --since in the future', () => {
    expect(() => parseWindow({ since: '24h', until: '48h', now: NOW, zone: 'UTC' })).toThrow(/--since .* is not before --until/);
    expect(() => parseWindow({ since: '2026-11-24', now: NOW, zone: 'UTC' })).toThrow(/--since: 2026-11-24T00:00:00.000Z is in the future/);
  });
});

type Row = { id: string; created_at?: string | null };
const row = (n: number, minutesAgo: number): Row => ({ id: `res_${n}`, created_at: new Date(NOW - minutesAgo * 60_000).toISOString() });

/** Pages newest first, one row per minute, counting how many the consumer pulled. */
function source(pages: Row[][]) {
  const state = { pulled: 0, returned: false };
  const iterable: AsyncIterable<Row[]> = {
    async *[Symbol.asyncIterator]() {
      try {
        for (const p of pages) {
          state.pulled++;
          yield p;
        }
      } finally {
        state.returned = true;
      }
    },
  };
  return { iterable, state };
}

const minutePages = (count: number, size: number): Row[][] => {
  const pages: Row[][] = [];
  for (let i = 0; i < count; i += size) pages.push(Array.from({ length: Math.min(size, count - i) }, (_, k) => row(i + k, i + k)));
  return pages;
};

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('selectWindow', () => {
  it('keeps since ≤ t < until and stops after the first page wholly older than since', async () => {
    const { iterable, state } = source(minutePages(100, 10));
    const rows = await collect(selectWindow(iterable, { since: NOW - 25 * 60_000, until: NOW - 5 * 60_000 }));
    // Minutes ago 6..25 inclusive of the since edge (25), exclusive of the until edge (5).
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, k) => `res_${k + 6}`));
    // Pages 0-1 (0..19) and 2 (20..29, straddling) hold rows; page 3 is all older: read, then stop.
    expect(state.pulled).toBe(4);
    expect(state.returned).toBe(true);
  });

  it('a row exactly at since is in; exactly at until is out', async () => {
    const { iterable } = source([[row(1, 10), row(2, 20), row(3, 30)]]);
    const rows = await collect(selectWindow(iterable, { since: NOW - 20 * 60_000, until: NOW - 10 * 60_000 }));
    expect(rows.map((r) => r.id)).toEqual(['res_2']);
  });

  it('a window with no rows reads until the first older page and yields nothing', async () => {
    const { iterable, state } = source(minutePages(50, 10));
    const rows = await collect(selectWindow(iterable, { since: NOW - 14.9 * 60_000, until: NOW - 14.5 * 60_000 }));
    expect(rows).toEqual([]);
    expect(state.pulled).toBe(3);
  });

  it('keeps a row out of order inside a straddling page (the stop is per page, not per row)', async () => {
    const { iterable } = source([[row(1, 1), row(2, 30), row(3, 5)], [row(4, 40)], [row(5, 2)]]);
    const rows = await collect(selectWindow(iterable, { since: NOW - 10 * 60_000 }));
    expect(rows.map((r) => r.id)).toEqual(['res_1', 'res_3']);
  });

  it('an empty page does not end the window', async () => {
    const { iterable } = source([[], [row(1, 1)], [row(2, 30)]]);
    expect((await collect(selectWindow(iterable, { since: NOW - 10 * 60_000 }))).map((r) => r.id)).toEqual(['res_1']);
  });

  it('with only --until, reads to the end', async () => {
    const { iterable, state } = source(minutePages(30, 10));
    const rows = await collect(selectWindow(iterable, { until: NOW - 25 * 60_000 }));
    expect(rows.map((r) => r.id)).toEqual(['res_26', 'res_27', 'res_28', 'res_29']); // res_25 is at the until edge: out
    expect(state.pulled).toBe(3);
  });

  it('without bounds, passes every row through', async () => {
    const { iterable } = source(minutePages(25, 10));
    expect(await collect(selectWindow(iterable, {}))).toHaveLength(25);
  });

  it('tells each page it looked at', async () => {
    const seen: unknown[] = [];
    const { iterable } = source(minutePages(30, 10));
    await collect(selectWindow(iterable, { since: NOW - 12 * 60_000 }, { onWindowPage: (p) => seen.push(p) }));
    expect(seen).toEqual([
      { rows: 10, inWindow: 10, stop: false },
      { rows: 10, inWindow: 3, stop: false },
      { rows: 10, inWindow: 0, stop: true },
    ]);
  });

  it.each([
    [undefined, /--since needs each result's created_at, and the service sent res_2 without it/],
    [null, /without it/],
    ['last tuesday', /res_2 with "last tuesday", which is not a time/],
  ])('a row without a usable created_at (%j) is a typed error naming the flag', async (value, message) => {
    const bad: Row = { id: 'res_2' };
    if (value !== undefined) bad.created_at = value;
    const { iterable } = source([[row(1, 1), bad]]);
    const err = await collect(selectWindow(iterable, { since: NOW - 60 * 60_000 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingEventTimeError);
    expect((err as Error).message).toMatch(message);
    expect((err as MissingEventTimeError).field).toBe('--since');
  });

  it('names --until when only --until needs the time', async () => {
    const { iterable } = source([[{ id: 'res_9' }]]);
    await expect(collect(selectWindow(iterable, { until: NOW }))).rejects.toThrow(/^--until needs each result's created_at/);
  });
});

describe('seekUntil', () => {
  /** A newest-first list of `n` rows, one a minute, with a probe that counts its reads. */
  const list = (n: number) => {
    const times = Array.from({ length: n }, (_, i) => NOW - i * 60_000);
    const reads: number[] = [];
    const probe = async (offset: number) => {
      reads.push(offset);
      const t = times[offset];
      return { id: t === undefined ? undefined : `res_${offset}`, createdAt: t === undefined ? undefined : new Date(t).toISOString(), total: n };
    };
    return { probe, reads };
  };

  it('finds the first offset older than --until in about log2(total) reads', async () => {
    const { probe, reads } = list(100_000);
    expect(await seekUntil(probe, NOW - 54_321 * 60_000)).toBe(54_322); // the row at 54,321 is at the edge: out
    expect(reads.length).toBeLessThanOrEqual(18);
    expect(await seekUntil(probe, NOW - 54_321 * 60_000 + 1)).toBe(54_321);
  });

  it('returns 0 when the first page already reaches past --until, after one read', async () => {
    const { probe, reads } = list(100_000);
    expect(await seekUntil(probe, NOW - 50 * 60_000)).toBe(0);
    expect(reads).toEqual([99]);
    const short = list(30);
    expect(await seekUntil(short.probe, NOW - 10 * 60_000)).toBe(0);
  });

  it('returns the total when every row is newer than --until', async () => {
    const { probe } = list(1000);
    expect(await seekUntil(probe, NOW - 5000 * 60_000)).toBe(1000);
  });

  it('a probed row without created_at is the typed error naming --until', async () => {
    const probe = async () => ({ id: 'res_1', createdAt: undefined, total: 500 });
    await expect(seekUntil(probe, NOW)).rejects.toBeInstanceOf(MissingEventTimeError);
    await expect(seekUntil(probe, NOW)).rejects.toThrow(/^--until needs/);
  });
});
