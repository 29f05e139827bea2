// Times for people (relative, in their zone) and for scripts (RFC 3339 UTC), and counts for people.
import { groupDigits } from '../wire/numbers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30.44 * DAY;
const YEAR = 365.25 * DAY;

/**
 * What Intl.RelativeTimeFormat('en', { numeric: 'always' }) says for a whole, non-zero count
 * ("in 1 day", "3 hours ago", "1,234 years ago"), without it: the first Intl formatter a process
 * creates loads the locale data (~20 ms), which was a third of `results get`'s start-up.
 */
export function relativeEnglish(count: number, unit: 'minute' | 'hour' | 'day' | 'month' | 'year'): string {
  const n = Math.abs(count);
  const phrase = `${groupDigits(n)} ${unit}${n === 1 ? '' : 's'}`;
  return count < 0 ? `${phrase} ago` : `in ${phrase}`;
}

/**
 * "just now", "5 minutes ago", "in 3 hours", "1 day ago", "in 3 days", "2 months ago": the largest
 * unit that gives at least 1 (rounded), switching a little early as people do (45 minutes is
 * "1 hour", 22 hours is "1 day").
 */
export function formatRelative(iso: string | number | null | undefined, now: number): string {
  if (iso === null || iso === undefined || iso === '') return '';
  const t = typeof iso === 'number' ? iso : Date.parse(iso);
  if (Number.isNaN(t)) return String(iso);
  const diff = t - now;
  const abs = Math.abs(diff);
  if (abs < 45_000) return diff < 0 ? 'just now' : 'in a few seconds';
  const sign = diff < 0 ? -1 : 1;
  const say = (n: number, unit: Parameters<typeof relativeEnglish>[1]) => relativeEnglish(sign * Math.max(1, Math.round(n)), unit);
  if (abs < 45 * MINUTE) return say(abs / MINUTE, 'minute');
  if (abs < 22 * HOUR) return say(abs / HOUR, 'hour');
  if (abs < 26 * DAY) return say(abs / DAY, 'day');
  if (abs < 320 * DAY) return say(abs / MONTH, 'month');
  return say(abs / YEAR, 'year');
}

const SHORT_UNIT = { minute: 'm', hour: 'h', day: 'd', month: 'mo', year: 'y' } as const;

/**
 * formatRelative in a few columns, for a table too narrow for the words: "now", "5m", "3h", "2d",
 * "4mo", "1y" for the past (what a results table shows), "in 5m" for the future.
 */
export function formatRelativeShort(iso: string | number | null | undefined, now: number): string {
  const long = formatRelative(iso, now);
  if (long === 'just now') return 'now';
  if (long === 'in a few seconds') return 'in 1m';
  const m = /^(in )?([\d,]+) (minute|hour|day|month|year)s?( ago)?$/.exec(long);
  return m ? `${m[1] ?? ''}${m[2]}${SHORT_UNIT[m[3] as keyof typeof SHORT_UNIT]}` : long;
}

/** "2026-12-01 10:00 CET" in the given zone (default: the machine's). */
export function formatLocal(iso: string | number, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  // UTC needs no zone data: Intl's first formatter would load it (~9 ms) to say the same.
  if (timeZone === 'UTC' && d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999) {
    const utc = d.toISOString();
    return `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
  }
  const parts = formatter('en-CA', timeZone, DATE_TIME).formatToParts(d);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${zoneAbbreviation(d, timeZone)}`;
}

const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
const ZONE_NAME: Intl.DateTimeFormatOptions = { timeZoneName: 'short' };

/** Formatters by locale, zone and options: a list formats every row with the same few. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}|${options === ZONE_NAME ? 'zone' : 'date'}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone })));
  return f;
}

/**
 * The zone's short name as people write it: CET and CEST (which English names only in British
 * usage), EST and PST (American usage); where neither locale has a name, the offset (GMT+9).
 */
function zoneAbbreviation(d: Date, timeZone: string | undefined): string {
  const name = (locale: string) => formatter(locale, timeZone, ZONE_NAME).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const american = name('en-US');
  if (!/^GMT[+-]/.test(american)) return american;
  const british = name('en-GB');
  return /^GMT[+-]/.test(british) ? american : british;
}

/**
 * When a wait ends: "14:05" within a day of `now`, with its date and zone beyond it
 * ("2027-03-05 00:05 CET"), where a clock time alone would name the wrong day.
 */
export function formatUntil(epochMs: number, now: number, timeZone?: string): string {
  return Math.abs(epochMs - now) < DAY ? formatClock(epochMs, timeZone) : formatLocal(epochMs, timeZone);
}

/** "14:05" local time, for "waiting until 14:05". */
export function formatClock(epochMs: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(epochMs);
}

export { formatCount } from '../wire/numbers.js';
