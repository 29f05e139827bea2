import { describe, expect, it } from 'vitest';
import { TimeInputError, checkZone, fromWallClock, parseAt, requireFuture, zoneOffsetMs } from '../../src/posts/when.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

function timeError(fn: () => unknown): TimeInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof TimeInputError) return e;
    throw e;
  }
  throw new Error('expected a TimeInputError');
}

describe('parseAt', () => {
  it('reads RFC 3339 with Z, offsets, fractions and a space separator', () => {
    expect(parseAt('2026-12-01T09:00:00Z', { now: NOW }).iso).toBe('2026-12-01T09:00:00.000Z');
    expect(parseAt('2026-12-01T09:00:00+01:00', { now: NOW }).iso).toBe('2026-12-01T08:00:00.000Z');
    expect(parseAt('2026-12-01 09:00-05:00', { now: NOW }).iso).toBe('2026-12-01T14:00:00.000Z');
    expect(parseAt('2026-12-01T09:00:00.250Z', { now: NOW }).iso).toBe('2026-12-01T09:00:00.250Z');
    expect(parseAt('2026-12-01T09:00:00+0130', { now: NOW }).iso).toBe('2026-12-01T07:30:00.000Z');
    expect(parseAt('2026-12-01T09:00:00Z', { now: NOW }).kind).toBe('rfc3339');
  });

  it('reads a date with an am/pm clock, as "tomorrow 9am" is read, in the zone', () => {
    expect(parseAt('2026-12-02 9am', { now: NOW, zone: 'Europe/Paris' }).iso).toBe('2026-12-02T08:00:00.000Z');
    expect(parseAt('2026-12-02 9:30 pm', { now: NOW, zone: 'UTC' }).iso).toBe('2026-12-02T21:30:00.000Z');
    expect(parseAt('2026-12-02 12am', { now: NOW, zone: 'UTC' }).kind).toBe('local');
    expect(timeError(() => parseAt('2026-12-02 13pm', { now: NOW, zone: 'UTC' })).message).toMatch(/am\/pm hours run 1 to 12/);
    expect(timeError(() => parseAt('2026-02-30 9am', { now: NOW, zone: 'UTC' })).message).toMatch(/2026-02-30 9am.*not a real date/);
  });

  it('knows the last day of every month, leap years by the Gregorian rule', () => {
    // Every month of 1896-2104 (1900 and 2100 are not leap years, 2000 is), against Date's own calendar.
    for (let y = 1896; y <= 2104; y++) {
      for (let mo = 1; mo <= 12; mo++) {
        const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
        const day = (d: number) => `${y}-${String(mo).padStart(2, '0')}-${d}T09:00:00Z`;
        expect(parseAt(day(last), { now: NOW }).iso.slice(0, 10)).toBe(day(last).slice(0, 10));
        if (last < 31) expect(timeError(() => parseAt(day(last + 1), { now: NOW })).message).toMatch(/not a real date/);
      }
    }
  });

  it('refuses impossible dates and offsets', () => {
    expect(timeError(() => parseAt('2026-02-30T09:00:00Z', { now: NOW })).message).toMatch(/not a real date/);
    expect(timeError(() => parseAt('2026-12-01T25:00:00Z', { now: NOW })).message).toMatch(/not a real date/);
    expect(timeError(() => parseAt('2026-12-01T09:00:00+25:00', { now: NOW })).message).toMatch(/offset/);
    expect(timeError(() => parseAt('tomorrow', { now: NOW })).message).toMatch(/--at: "tomorrow" has a day but no time/);
    expect(timeError(() => parseAt('2026-12-01', { now: NOW, zone: 'UTC' })).message).toMatch(/no time/);
    expect(timeError(() => parseAt('', { now: NOW })).field).toBe('--at');
  });

  it('reads local times in the given IANA zone, summer and winter', () => {
    expect(parseAt('2026-12-01 09:00', { now: NOW, zone: 'Europe/Paris' }).iso).toBe('2026-12-01T08:00:00.000Z');
    expect(parseAt('2026-07-01 09:00', { now: NOW, zone: 'Europe/Paris' }).iso).toBe('2026-07-01T07:00:00.000Z');
    expect(parseAt('2026-07-01T09:00', { now: NOW, zone: 'America/New_York' }).iso).toBe('2026-07-01T13:00:00.000Z');
    expect(parseAt('2026-12-01 9:05', { now: NOW, zone: 'Asia/Kolkata' }).iso).toBe('2026-12-01T03:35:00.000Z');
    expect(parseAt('2026-12-01 09:00', { now: NOW, zone: 'UTC' }).zone).toBe('UTC');
  });

  it('refuses a local time inside a DST gap and takes the first of a repeated hour', () => {
    const gap = timeError(() => parseAt('2027-03-14 02:30', { now: NOW, zone: 'America/New_York' }));
    expect(gap.message).toMatch(/does not exist in America\/New_York/);
    expect(gap.field).toBe('--at');
    expect(() => parseAt('2026-03-29 02:15', { now: NOW, zone: 'Europe/Berlin' })).toThrow(/does not exist/);
    // 2026-11-01 01:30 happens twice in New York: EDT (05:30Z) first, then EST (06:30Z).
    expect(parseAt('2026-11-01 01:30', { now: NOW, zone: 'America/New_York' }).iso).toBe('2026-11-01T05:30:00.000Z');
    // Lord Howe shifts by 30 minutes.
    expect(() => fromWallClock({ year: 2026, month: 10, day: 4, hour: 2, minute: 15, second: 0 }, 'Australia/Lord_Howe')).toThrow(/does not exist/);
  });

  it('reads relative times from now, alone or combined', () => {
    expect(parseAt('+30m', { now: NOW }).epochMs).toBe(NOW + 30 * 60_000);
    expect(parseAt('+2h', { now: NOW }).epochMs).toBe(NOW + 2 * 3_600_000);
    // As people say it: the same instants as the + forms, and relative like them.
    expect(parseAt('in 1 minute', { now: NOW })).toEqual(parseAt('+1m', { now: NOW }));
    expect(parseAt('In 2 hours', { now: NOW }).epochMs).toBe(NOW + 2 * 3_600_000);
    expect(parseAt('in 1 hour and 30 minutes', { now: NOW }).epochMs).toBe(NOW + 90 * 60_000);
    expect(parseAt('in 3 days', { now: NOW }).kind).toBe('relative');
    expect(timeError(() => parseAt('in 2 hours', { now: NOW, allowRelative: false, field: 'line 3: at' })).message).toMatch(/^line 3: at: relative time/);
    expect(timeError(() => parseAt('in 2 fortnights', { now: NOW })).message).toMatch(/is not a time I can read/);
    expect(timeError(() => parseAt('in 0 minutes', { now: NOW })).message).toMatch(/not in the future/);
    expect(parseAt('+1d', { now: NOW }).epochMs).toBe(NOW + 86_400_000);
    expect(parseAt('+1h30m', { now: NOW }).epochMs).toBe(NOW + 90 * 60_000);
    expect(() => parseAt('+0m', { now: NOW })).toThrow(/not in the future/);
    expect(timeError(() => parseAt('+2h', { now: NOW, allowRelative: false, field: 'line 3: at' })).message).toMatch(/^line 3: at: relative time/);
  });

  it('refuses unknown zones, suggesting the nearest one', () => {
    const e = timeError(() => checkZone('Europe/Pariss'));
    expect(e.field).toBe('--tz');
    expect(e.hint).toMatch(/Europe\/Paris/);
    expect(() => parseAt('2026-12-01 09:00', { now: NOW, zone: 'Mars/Olympus' })).toThrow(/--tz: "Mars\/Olympus" is not a known time zone/);
    expect(checkZone('UTC')).toBe('UTC');
  });

  it('knows zone offsets', () => {
    expect(zoneOffsetMs(Date.parse('2026-12-01T00:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(zoneOffsetMs(Date.parse('2026-07-01T00:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000);
  });

  it('requireFuture refuses now and the past', () => {
    const past = parseAt('2026-05-31T12:00:00Z', { now: NOW });
    expect(timeError(() => requireFuture(past, NOW, '--at', '2026-05-31T12:00:00Z')).message).toMatch(/is in the past by 1 day/);
    expect(() => requireFuture(parseAt('2026-06-01T12:00:00Z', { now: NOW }), NOW)).toThrow(/past/);
    expect(requireFuture(parseAt('+1m', { now: NOW }), NOW).epochMs).toBe(NOW + 60_000);
  });
});
