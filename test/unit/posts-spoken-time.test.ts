// Times as people type them, with an injected clock, across daylight-saving changes.
import { describe, expect, it } from 'vitest';
import { parseAt, requireFuture } from '../../src/posts/when.js';
import { parseBound } from '../../src/results/since.js';

// Saturday 24 October 2026, 22:00 in Paris (CEST, UTC+2); summer time ends that night at 03:00 → 02:00.
const SAT_EVENING = Date.parse('2026-10-24T20:00:00Z');
const at = (text: string, now = SAT_EVENING, zone = 'Europe/Paris') => parseAt(text, { now, zone }).iso;

describe('--at as people type it', () => {
  it.each([
    ['tomorrow 9am', '2026-10-25T08:00:00.000Z'], // Sunday is already winter time (UTC+1)
    ['tomorrow at 09:00', '2026-10-25T08:00:00.000Z'],
    ['09:00', '2026-10-25T08:00:00.000Z'], // 09:00 has passed today: the next one
    ['23:15', '2026-10-24T21:15:00.000Z'], // still ahead today (CEST)
    ['9:30 pm', '2026-10-25T20:30:00.000Z'],
    ['mon 10:00', '2026-10-26T09:00:00.000Z'],
    ['Monday 10am', '2026-10-26T09:00:00.000Z'],
    ['sat 23:00', '2026-10-24T21:00:00.000Z'], // today, still ahead
    ['sat 21:00', '2026-10-31T20:00:00.000Z'], // today has passed: next Saturday
    ['12am', '2026-10-24T22:00:00.000Z'], // midnight, the start of Sunday (still CEST)
    ['sun 02:30', '2026-10-25T00:30:00.000Z'], // occurs twice that night: the first
  ])('%s → %s', (text, iso) => {
    expect(at(text)).toBe(iso);
  });

  it('kind local, in the zone given', () => {
    expect(parseAt('tomorrow 9am', { now: SAT_EVENING, zone: 'Asia/Tokyo' })).toMatchObject({ kind: 'local', zone: 'Asia/Tokyo', iso: '2026-10-26T00:00:00.000Z' });
  });

  it('refuses a time skipped by the spring change, naming it', () => {
    // New York, Saturday 13 March 2027: the clocks skip 02:00–03:00 on Sunday.
    const now = Date.parse('2027-03-13T17:00:00Z');
    expect(() => parseAt('tomorrow 02:30', { now, zone: 'America/New_York' })).toThrow(/does not exist in America\/New_York/);
    expect(parseAt('tomorrow 03:30', { now, zone: 'America/New_York' }).iso).toBe('2027-03-14T07:30:00.000Z');
  });

  it.each([
    ['9', /could be 9 in the morning or the evening.*09:00, 9am or 9pm/],
    ['13pm', /am\/pm hours run 1 to 12/],
    ['25:00', /not a time of day/],
    ['monday', /has a day but no time/],
    ['next friday', /not a time I can read.*tomorrow 9am.*mon 10:00/],
    ['01/02 10:00', /not a time I can read/],
  ])('refuses %j with the forms that work', (text, message) => {
    const said = (() => {
      try {
        parseAt(text, { now: SAT_EVENING, zone: 'Europe/Paris' });
        return 'accepted';
      } catch (e) {
        return `${(e as Error).message} (${(e as { hint?: string }).hint})`;
      }
    })();
    expect(said).toMatch(message);
  });

  it('today at a passed time is refused as past; not allowed where a re-run must mean the same instant', () => {
    expect(() => requireFuture(parseAt('today 09:00', { now: SAT_EVENING, zone: 'Europe/Paris' }), SAT_EVENING)).toThrow(/in the past/);
    expect(() => parseAt('tomorrow 9am', { now: SAT_EVENING, zone: 'UTC', allowRelative: false })).toThrow(/depends on when it is read/);
  });
});

describe('--since as people type it', () => {
  // Monday 26 October 2026, 11:00 in Paris (CET, UTC+1), the day after the change.
  const MON = Date.parse('2026-10-26T10:00:00Z');
  const since = (text: string) => new Date(parseBound(text, { now: MON, zone: 'Europe/Paris', field: '--since' })).toISOString();
  it.each([
    ['yesterday', '2026-10-24T22:00:00.000Z'], // Sunday began in summer time
    ['today', '2026-10-25T23:00:00.000Z'],
    ['yesterday 9am', '2026-10-25T08:00:00.000Z'],
    ['09:00', '2026-10-26T08:00:00.000Z'], // the latest 09:00: this morning
    ['12:00', '2026-10-25T11:00:00.000Z'], // not yet today: yesterday's
    ['sat', '2026-10-23T22:00:00.000Z'],
    ['mon', '2026-10-25T23:00:00.000Z'], // today is Monday
  ])('%s → %s', (text, iso) => {
    expect(since(text)).toBe(iso);
  });
  it('still refuses what it cannot read, with the forms', () => {
    expect(() => since('last week')).toThrow(/not a time I can read/);
    expect(() => since('last week')).not.toThrow(/--at/);
  });
});
