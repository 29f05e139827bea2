// `--at` and `--tz`: RFC 3339 with an offset, a local "YYYY-MM-DD HH:MM" in an IANA zone
// (resolved with Intl, so no zone database ships with us), or a relative "+30m", "+2h", "+1d".
// Everything here is pure: the caller passes "now" and the zone.
import { nearest } from '../wire/suggest.js';
import { FieldInputError } from '../wire/invalid-input.js';

/** A time the user gave that cannot be used (exit 2, naming the flag or field). */
export class TimeInputError extends FieldInputError {
  constructor(field: string, message: string, hint?: string) {
    super(field, message, hint);
    this.name = 'TimeInputError';
  }
}

export type AtKind = 'rfc3339' | 'local' | 'relative';

export interface ResolvedAt {
  /** Epoch milliseconds. */
  epochMs: number;
  /** What goes on the wire: UTC with milliseconds. */
  iso: string;
  kind: AtKind;
  /** The zone a local time was read in (local kind only). */
  zone?: string;
}

/**
 * A resolved time whose wire form is written when first read: a bulk check resolves every row's
 * time and never sends one, and toISOString costs more than the rest of reading an RFC 3339 time.
 * A class, not an object literal with a getter: a bulk check makes one a row, and the literal
 * cost five times as much to make.
 */
class At implements ResolvedAt {
  private wire: string | undefined;
  zone?: string;
  constructor(
    readonly epochMs: number,
    readonly kind: AtKind,
    zone?: string,
  ) {
    if (zone !== undefined) this.zone = zone;
  }
  get iso(): string {
    return (this.wire ??= new Date(this.epochMs).toISOString());
  }
}

const resolvedAt = (epochMs: number, kind: AtKind, zone?: string): ResolvedAt => new At(epochMs, kind, zone);

/** The machine's zone, as Intl resolves it (the TZ variable included). */
export function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An Intl formatter for the zone, or a TimeInputError naming --tz with the nearest zone. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const guess = nearest(zone, zones, Math.max(3, Math.ceil(zone.length / 3))) ?? zoneByCity(zone, zones);
    throw new TimeInputError('--tz', `--tz: "${zone}" is not a known time zone`, guess ? `did you mean "${guess}"? (IANA names such as Europe/Paris, America/New_York, UTC)` : 'use an IANA name such as Europe/Paris, America/New_York or UTC');
  }
  formatters.set(zone, f);
  return f;
}

/** "paris" → Europe/Paris, "new york" → America/New_York: people name the city, not the region. */
function zoneByCity(input: string, zones: readonly string[]): string | undefined {
  const city = (z: string) => z.slice(z.lastIndexOf('/') + 1).replace(/_/g, ' ').toLowerCase();
  const wanted = input.trim().replace(/[_-]/g, ' ').toLowerCase();
  if (wanted === '') return undefined;
  const cities = zones.map(city);
  const exact = zones[cities.indexOf(wanted)];
  if (exact) return exact;
  const near = nearest(wanted, cities, Math.max(1, Math.floor(wanted.length / 4)));
  return near === undefined ? undefined : zones[cities.indexOf(near)];
}

/** Throws a TimeInputError (field --tz) unless the zone is known. */
export function checkZone(zone: string): string {
  formatterFor(zone);
  return zone;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(epochMs: number, zone: string): Wall {
  const parts = formatterFor(zone).formatToParts(epochMs);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour') % 24, minute: n('minute'), second: n('second') };
}

/** The zone's offset from UTC at that instant, in ms (positive east of Greenwich). */
export function zoneOffsetMs(epochMs: number, zone: string): number {
  const w = wallClock(epochMs, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

const sameWall = (a: Wall, b: Wall) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;

/**
 * The instant at which the zone's clocks show this wall time. A time that occurs twice (clocks
 * going back) resolves to the first occurrence; one that never occurs (clocks going forward) is
 * refused, since any guess would publish at a time the user did not write.
 */
export function fromWallClock(wall: Wall, zone: string, field = '--at'): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const candidates = new Set<number>();
  for (const probe of [naive - 14 * 3_600_000, naive, naive + 14 * 3_600_000]) {
    candidates.add(naive - zoneOffsetMs(probe, zone));
  }
  const matches = [...candidates].filter((t) => sameWall(wallClock(t, zone), wall)).sort((a, b) => a - b);
  if (matches.length === 0) {
    const text = `${wall.year}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}`;
    throw new TimeInputError(field, `${field}: ${text} does not exist in ${zone} (the clocks skip it when daylight saving time starts)`, 'pick a time outside the skipped hour, or give an explicit offset (RFC 3339)');
  }
  return matches[0]!;
}

const pad = (n: number) => String(n).padStart(2, '0');

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DATE_AND_CLOCK = /^(\d{4}-\d{2}-\d{2})\s+(\d{1,2}(?:[:.h]\d{2})?\s*[ap]\.?m\.?)$/i;
/** The "+" form of a relative time: letters for units ("+2h", "+1d 30m"). */
const RELATIVE = /^\+\s*(?:\d+\s*(?:w|d|h|m|min|s)\s*)+$/i;
const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
// Units as letters (48h) or spelt out as people type them ("2 days", "30 minutes"), longest first.
const UNIT = '(weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)';
const DURATION = new RegExp(`^(?:\\d+\\s*${UNIT}\\s*)+$`, 'i');
const DURATION_PART = new RegExp(`(\\d+)\\s*${UNIT}`, 'gi');

/**
 * "48h", "1w2d", "2 days 30 minutes" in ms; undefined for any other text. A unit's first letter
 * names it: "min" and "minutes" are m, "hrs" is h.
 */
export function durationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const m of text.matchAll(DURATION_PART)) ms += Number(m[1]) * UNIT_MS[m[2]![0]!.toLowerCase()]!;
  return ms;
}

/** A relative --at in ms: "+2h", or as people say it, "in 2 hours", "in 1 hour and 30 minutes"; undefined for any other text. */
function relativeMs(text: string): number | undefined {
  if (text.startsWith('+')) return RELATIVE.test(text) ? durationMs(text.slice(1).trim()) : undefined;
  return /^in\s/i.test(text) ? durationMs(text.slice(2).replace(/\s*(?:,|\band\b)\s*/gi, ' ').trim()) : undefined;
}

/** Days in a month of the proleptic Gregorian calendar (Date's), counted without making a Date. */
const daysInMonth = (y: number, mo: number) => (mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31);

function checkFields(field: string, input: string, y: number, mo: number, d: number, h: number, mi: number, s: number): void {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) {
    throw new TimeInputError(field, `${field}: "${input}" is not a real date and time`, 'check the month, day, hour and minute');
  }
}

export interface ParseAtOptions {
  now: number;
  /**
   * Zone for local times; default the machine's. A function is called only for a local time:
   * Intl's zone costs ~10 ms to set up, which a bulk file of RFC 3339 times never needs.
   */
  zone?: string | (() => string);
  /** Name of the field in messages (--at, or "at" in a bulk file). */
  field?: string;
  /** Refuse relative times (bulk files: a re-run would compute another instant). */
  allowRelative?: boolean;
}

/** Parses a --at value. Does not check that it lies in the future: see requireFuture. */
export function parseAt(input: string, options: ParseAtOptions): ResolvedAt {
  const field = options.field ?? '--at';
  const text = input.trim();
  if (text === '') throw new TimeInputError(field, `${field} is empty`, 'give a time such as 2026-12-01T09:00:00+01:00, "2026-12-01 09:00" or +2h');

  // Only a relative time starts with "+" or "in ": the other forms skip its patterns.
  const ms = relativeMs(text);
  if (ms !== undefined) {
    if (options.allowRelative === false) {
      throw new TimeInputError(field, `${field}: relative time "${text}" is not allowed here (a re-run would compute a different time)`, 'write an absolute time: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" with --tz');
    }
    if (ms <= 0) throw new TimeInputError(field, `${field}: "${text}" is not in the future`, 'use a positive amount such as +30m, +2h or +1d');
    const epochMs = options.now + ms;
    return resolvedAt(epochMs, 'relative');
  }

  const abs = RFC3339.exec(text);
  if (abs) {
    // By index: destructuring walks the array's iterator, which a bulk check pays a row.
    const y = abs[1]!, mo = abs[2]!, d = abs[3]!, h = abs[4]!, mi = abs[5]!, s = abs[6] ?? '0', off = abs[8]!;
    checkFields(field, text, +y, +mo, +d, +h, +mi, +s);
    const offset = off.toUpperCase() === 'Z' ? 'Z' : off.length === 5 ? `${off.slice(0, 3)}:${off.slice(3)}` : off;
    if (offset !== 'Z' && (+offset.slice(1, 3) > 23 || +offset.slice(4, 6) > 59)) {
      throw new TimeInputError(field, `${field}: "${off}" is not a valid UTC offset`, 'offsets look like +01:00, -05:00 or Z');
    }
    const normalised = `${y}-${mo}-${d}T${h}:${mi}:${s.padStart(2, '0')}${abs[7] ?? ''}${offset}`;
    const epochMs = Date.parse(normalised);
    if (Number.isNaN(epochMs)) throw new TimeInputError(field, `${field}: "${text}" is not a valid time`);
    return resolvedAt(epochMs, 'rfc3339');
  }

  // "2026-12-02 9am": a date with the clock as "tomorrow 9am" takes it, read as "2026-12-02 09:00".
  const dated = DATE_AND_CLOCK.exec(text);
  const clock = dated ? clockOf(dated[2]!, field) : undefined;
  const local = LOCAL.exec(dated && clock ? `${dated[1]} ${pad(clock.hour)}:${pad(clock.minute)}` : text);
  if (local) {
    const zone = checkZone((typeof options.zone === 'function' ? options.zone() : options.zone) ?? machineZone());
    const [, y, mo, d, h, mi, s = '0'] = local;
    if (h === undefined) {
      throw new TimeInputError(field, `${field}: "${text}" has a date but no time`, `add the time: "${text} 09:00"`);
    }
    checkFields(field, text, +y!, +mo!, +d!, +h, +mi!, +s);
    const epochMs = fromWallClock({ year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi!, second: +s }, zone, field);
    return resolvedAt(epochMs, 'local', zone);
  }

  const zone = checkZone((typeof options.zone === 'function' ? options.zone() : options.zone) ?? machineZone());
  const relative = () => new TimeInputError(field, `${field}: "${text}" depends on when it is read (a re-run would compute a different time)`, 'write an absolute time: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" with --tz');
  let spoken: number | undefined;
  try {
    spoken = spokenTime(text, { now: options.now, zone, field, toward: 'next' });
  } catch (err) {
    // Where relative times are refused, "tomorrow" alone is told so, not to become "tomorrow 09:00".
    if (options.allowRelative === false && err instanceof TimeInputError) throw relative();
    throw err;
  }
  if (spoken !== undefined) {
    if (options.allowRelative === false) throw relative();
    return resolvedAt(spoken, 'local', zone);
  }
  // Where relative times are refused (a bulk file), only the forms it takes are offered.
  throw new TimeInputError(field, `${field}: "${text}" is not a time I can read`, `use ${options.allowRelative === false ? ABSOLUTE_FORMS : AT_FORMS}`);
}

/** The forms a bulk file's times take: absolute ones only (a re-run must compute the same instant). */
export const ABSOLUTE_FORMS = 'RFC 3339 with an offset (2026-12-01T09:00:00+01:00), or "YYYY-MM-DD HH:MM" read in --tz (default: this machine\'s zone)';

/** The forms --at reads, for messages. */
export const AT_FORMS =
  'RFC 3339 with an offset (2026-12-01T09:00:00+01:00), "YYYY-MM-DD HH:MM", "tomorrow 9am", "mon 10:00" or "09:00" (the next one) in --tz (default: this machine\'s zone), or +30m / +2h / +1d ("in 2 hours")';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_WORD = /^(today|tomorrow|yesterday|(sun|mon|tue|wed|thu|fri|sat)[a-z]*)$/i;
const FULL_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const CLOCK = /^(\d{1,2})(?:[:.h](\d{2}))?\s*([ap]\.?m\.?)?$/i;

export interface SpokenOptions {
  now: number;
  zone: string;
  field: string;
  /** `next`: the coming occurrence (a time to publish at); `last`: the latest one (--since). */
  toward: 'next' | 'last';
}

/** "9am", "21:30", "9:30 pm" → hour and minute; undefined when not a clock time; refuses "9" and "13pm". */
function clockOf(text: string, field: string): { hour: number; minute: number } | undefined {
  const m = CLOCK.exec(text.trim());
  if (!m) return undefined;
  const [, h, mi, ampm] = m;
  let hour = Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  if (mi === undefined && ampm === undefined) {
    throw new TimeInputError(field, `${field}: "${text}" could be ${h} in the morning or the evening`, `write ${pad(hour)}:00, ${hour}am or ${hour % 12 === 0 ? 12 : hour}pm (24-hour times need the minutes)`);
  }
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) throw new TimeInputError(field, `${field}: "${text}" is not a time (am/pm hours run 1 to 12)`, 'write 9am, 12pm, or a 24-hour time such as 21:00');
    hour = (hour % 12) + (/^p/i.test(ampm) ? 12 : 0);
  }
  if (hour > 23 || minute > 59) throw new TimeInputError(field, `${field}: "${text}" is not a time of day`, 'write it as HH:MM between 00:00 and 23:59, or 9am / 9pm');
  return { hour, minute };
}

/**
 * Times as people type them, in the zone: "tomorrow 9am", "today 17:30", "mon 10:00" (the next
 * Monday), "09:00" (the next 09:00), and for `last` also "yesterday" or "mon" alone (the start of
 * that day). Epoch ms, or undefined when the text is not of this kind; a time skipped by a
 * daylight-saving change is refused, one that occurs twice is the first.
 */
export function spokenTime(input: string, options: SpokenOptions): number | undefined {
  const words = input.trim().toLowerCase().replace(/\s+at\s+/, ' ').split(/\s+/);
  const dayWord = DAY_WORD.test(words[0] ?? '') ? words.shift()! : undefined;
  if (dayWord !== undefined && !['today', 'tomorrow', 'yesterday'].includes(dayWord) && !FULL_DAYS.some((d) => d.startsWith(dayWord) && dayWord.length >= 3)) return undefined;
  if (words.length > 2) return undefined;
  const clockText = words.join(' ');
  const clock = clockText === '' ? undefined : clockOf(clockText, options.field);
  if (clockText !== '' && clock === undefined) return undefined;
  if (dayWord === undefined && clock === undefined) return undefined;
  if (clock === undefined && options.toward === 'next') {
    throw new TimeInputError(options.field, `${options.field}: "${input.trim()}" has a day but no time`, `add the time: "${input.trim()} 09:00"`);
  }
  const { field, zone, now } = options;
  const today = wallClock(now, zone);
  const at = (offsetDays: number) => {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + offsetDays));
    return fromWallClock({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: clock?.hour ?? 0, minute: clock?.minute ?? 0, second: 0 }, zone, field);
  };
  const step = options.toward === 'next' ? 1 : -1;
  const reached = (t: number) => (options.toward === 'next' ? t > now : t <= now);
  if (dayWord === 'today') return at(0);
  if (dayWord === 'tomorrow') return at(1);
  if (dayWord === 'yesterday') return at(-1);
  if (dayWord === undefined) return reached(at(0)) ? at(0) : at(step);
  const wanted = DAYS.indexOf(dayWord.slice(0, 3));
  const todayIndex = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
  const ahead = (((wanted - todayIndex) * step) % 7 + 7) % 7;
  return ahead === 0 && !reached(at(0)) ? at(7 * step) : at(ahead * step);
}

/** Refuses a time that is not in the future (the service refuses it too, with 422). */
export function requireFuture(at: ResolvedAt, now: number, field = '--at', input?: string): ResolvedAt {
  if (at.epochMs <= now) {
    const ago = now - at.epochMs;
    const what = input ? `"${input}" (${at.iso})` : at.iso;
    throw new TimeInputError(field, `${field}: ${what} is in the past${ago >= 60_000 ? ` by ${humanAgo(ago)}` : ''}`, 'scheduled posts need a future time; check the date, and --tz for local times');
  }
  return at;
}

const SPANS: ReadonlyArray<[number, string]> = [
  [365.2425 * 86_400_000, 'year'],
  [30.436875 * 86_400_000, 'month'],
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'min'],
];

const unitText = (n: number, unit: string) => `${n} ${unit}${n === 1 || unit === 'min' ? '' : 's'}`;

/** "1 year 11 months", "3 days", "2 hours 5 min": the largest unit, and the next one rounded. */
export function humanAgo(ms: number): string {
  const first = SPANS.findIndex(([size]) => ms >= size);
  if (first < 0) return 'less than a minute';
  const [size, unit] = SPANS[first]!;
  let n = Math.floor(ms / size);
  const next = SPANS[first + 1];
  if (!next) return unitText(n, unit);
  let m = Math.round((ms - n * size) / next[0]);
  if (m >= Math.round(size / next[0])) [n, m] = [n + 1, 0]; // "2 hours 60 min" is 3 hours
  return m > 0 ? `${unitText(n, unit)} ${unitText(m, next[1])}` : unitText(n, unit);
}
