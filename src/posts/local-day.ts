// Local calendar days in an IANA zone, computed with Intl (through when.ts), so a day across a
// daylight-saving change is 23 or 25 hours long and starts at its real local midnight.
import { fromWallClock, TimeInputError, zoneOffsetMs } from './when.js';

/** A calendar date, month 1..12. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface LocalTime extends LocalDate {
  hour: number;
  minute: number;
  /** 0 Monday … 6 Sunday. */
  weekday: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "YYYY-MM-DD". */
export function dateKey(d: LocalDate): string {
  return `${d.year}-${pad(d.month)}-${pad(d.day)}`;
}

/** "HH:MM". */
export function clockText(t: Pick<LocalTime, 'hour' | 'minute'>): string {
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** The zone's wall clock at an instant. */
export function localTime(epochMs: number, zone: string): LocalTime {
  const shifted = new Date(epochMs + zoneOffsetMs(epochMs, zone));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    weekday: (shifted.getUTCDay() + 6) % 7,
  };
}

/** The date `n` days after `d` (calendar arithmetic: no zone involved). */
export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** 0 Monday … 6 Sunday. */
export function weekdayOf(d: LocalDate): number {
  return (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7;
}

/** The first instant of a local day; a day whose midnight is skipped (a few zones) starts when its clocks do. */
export function startOfLocalDay(d: LocalDate, zone: string): number {
  for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
    try {
      return fromWallClock({ ...d, hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0 }, zone);
    } catch {
      // This quarter hour does not exist in the zone (clocks moved forward over it): try the next.
    }
  }
  throw new TimeInputError('--tz', `--tz: ${zone} has no time on ${dateKey(d)}`);
}

/** Reads "YYYY-MM-DD" (a real date) or returns undefined. */
export function parseDateKey(text: string): LocalDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const d = { year: +m[1]!, month: +m[2]!, day: +m[3]! };
  if (d.month < 1 || d.month > 12 || new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDate() !== d.day) return undefined;
  return d;
}
