// `--since` / `--until` and the window they select. Results come newest first (the service sorts
// the merged list by event time before paging), so once a whole page is older than `since`
// every later page is too: the window stops reading there instead of paging to the end.
// Pure: the caller passes "now", the zone and the pages.
import { checkZone, durationMs, parseAt, spokenTime, TimeInputError } from '../posts/when.js';
import { parseDateKey, startOfLocalDay } from '../posts/local-day.js';
import { FieldInputError } from '../wire/invalid-input.js';

export { TimeInputError };

/** A window over event times, in epoch ms: since ≤ t < until (either end open when absent). */
export interface TimeWindow {
  since?: number;
  until?: number;
}

export interface ParseBoundOptions {
  now: number;
  /** IANA zone for "YYYY-MM-DD [HH:MM]" (already resolved by the caller: --tz, TZ or the machine's). */
  zone: string;
  /** The flag named in messages. */
  field: '--since' | '--until' | string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** What parseAt reads as RFC 3339 or a local time (its relative "+2h" form is not a bound). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]+\d{1,2}:\d{2}/;

const FORMS = 'a duration back from now (48h, 7d, 1d12h), RFC 3339 (2026-12-01T09:00:00Z), "YYYY-MM-DD [HH:MM]", "yesterday", "today 09:00" or "mon" (the start of last Monday) in --tz';

/**
 * Reads one bound: a duration back from now ("48h", "7d", "90m", "1w2d"), an RFC 3339 time with
 * an offset, or a local date (midnight) or date and time in `zone`. Returns epoch ms.
 */
export function parseBound(input: string, options: ParseBoundOptions): number {
  const { field, now } = options;
  const text = input.trim();
  if (text === '') throw new TimeInputError(field, `${field} is empty`, `give ${FORMS}`);

  // "48h ago" says the same as "48h": a duration here always counts back from now.
  const ms = durationMs(text.replace(/\s+ago$/i, ''));
  if (ms !== undefined) {
    if (ms <= 0) throw new TimeInputError(field, `${field}: "${text}" is no time back from now`, 'use a positive amount such as 48h or 7d');
    // Before 1970 no result exists, and a time that far back is no date at all (it cannot be printed).
    if (!(ms <= now)) throw new TimeInputError(field, `${field}: "${text}" reaches back before 1970`, 'use a shorter duration, or leave the flag out to take every result');
    return now - ms;
  }
  if (/^\d+$/.test(text)) {
    const hint = Number(text) > 0 ? `write ${text}h, ${text}d or ${text}m` : 'use a positive amount with a unit, such as 48h or 7d';
    throw new TimeInputError(field, `${field}: "${text}" has no unit`, hint);
  }

  // A date alone means its local midnight; a time (with an offset or in the zone) reads as --at does.
  if (DATE_ONLY.test(text)) {
    const date = parseDateKey(text);
    if (!date) throw new TimeInputError(field, `${field}: "${text}" is not a real date`, 'check the month and day');
    return startOfLocalDay(date, checkZone(options.zone));
  }
  // "2026-11-24 23:01 UTC" is how `posts view` and `posts queue` print a time: taken as it is copied.
  if (DATE_TIME.test(text)) return parseAt(text.replace(/\s*\bUTC$/i, 'Z'), { now, zone: options.zone, field, allowRelative: false }).epochMs;
  const spoken = spokenTime(text, { now, zone: checkZone(options.zone), field, toward: 'last' });
  if (spoken !== undefined) return spoken;

  throw new TimeInputError(field, `${field}: "${text}" is not a time I can read`, `use ${FORMS}`);
}

export interface WindowInput {
  since?: string;
  until?: string;
  now: number;
  zone: string;
}

/** Both flags at once, checked against each other and against now. */
export function parseWindow(input: WindowInput): TimeWindow {
  const window: TimeWindow = {};
  if (input.since !== undefined) window.since = parseBound(input.since, { now: input.now, zone: input.zone, field: '--since' });
  if (input.until !== undefined) window.until = parseBound(input.until, { now: input.now, zone: input.zone, field: '--until' });
  if (window.since !== undefined && window.since > input.now) {
    throw new TimeInputError('--since', `--since: ${new Date(window.since).toISOString()} is in the future, so no result can be that new`, 'check the date, and --tz for local times');
  }
  if (window.since !== undefined && window.until !== undefined && window.since >= window.until) {
    throw new TimeInputError(
      '--since',
      `--since (${new Date(window.since).toISOString()}) is not before --until (${new Date(window.until).toISOString()})`,
      'the window runs from --since up to --until: swap them, or widen it',
    );
  }
  return window;
}

/** A row the window cannot place: the service left out its event time. */
export class MissingEventTimeError extends FieldInputError {
  readonly rowId: string;
  constructor(field: string, rowId: string, got: unknown) {
    super(
      field,
      got === undefined || got === null
        ? `${field} needs each result's created_at, and the service sent ${rowId} without it`
        : `${field} needs each result's created_at, and the service sent ${rowId} with ${JSON.stringify(got)}, which is not a time`,
      'the window is chosen by event time, and guessing one would hide or repeat rows; leave out --since/--until to list every result',
    );
    this.name = 'MissingEventTimeError';
    this.rowId = rowId;
  }
}

/** What the window reads of a row (a PostResult; null tolerated since a server may send it). */
export interface TimedRow {
  id: string;
  created_at?: string | null | undefined;
}

export interface WindowOptions {
  /** Told about each page the window looked at and whether it was the last one read. */
  onWindowPage?: (page: { rows: number; inWindow: number; stop: boolean }) => void;
}

/**
 * The rows of newest-first pages whose created_at lies in the window, in order. Stops pulling
 * pages after the first non-empty page whose rows are all older than `since` (a page straddling
 * the edge is read whole, so a service that orders loosely within a page loses nothing).
 * Breaking out of the source cancels the pages it still has in flight. Filters on other fields
 * (--failed) belong after this: the stop looks at every row of a page.
 */
export async function* selectWindow<R extends TimedRow>(
  pages: AsyncIterable<readonly R[]>,
  window: TimeWindow,
  options: WindowOptions = {},
): AsyncGenerator<R, void, undefined> {
  const { since, until } = window;
  const field = since !== undefined ? '--since' : '--until';
  if (since === undefined && until === undefined) {
    for await (const page of pages) yield* page;
    return;
  }
  for await (const page of pages) {
    let older = 0;
    const inside: R[] = [];
    for (const row of page) {
      const t = eventTime(row, field);
      if (since !== undefined && t < since) older++;
      else if (until === undefined || t < until) inside.push(row);
    }
    const stop = page.length > 0 && older === page.length;
    options.onWindowPage?.({ rows: page.length, inWindow: inside.length, stop });
    yield* inside;
    if (stop) return;
  }
}

/** A row's event time in epoch ms, or a MissingEventTimeError naming the flag that needs it. */
export function eventTime(row: TimedRow, field = '--since'): number {
  const raw = row.created_at;
  const t = typeof raw === 'string' ? Date.parse(raw) : NaN;
  if (Number.isNaN(t)) throw new MissingEventTimeError(field, row.id, raw);
  return t;
}

/** One row's event time at an offset of the newest-first list, and the list's total then. */
export type OffsetProbe = (offset: number) => Promise<{ createdAt: string | null | undefined; id: string | undefined; total: number }>;

/**
 * With --until, the offset where rows start being older than it, found by binary search with
 * single-row reads (about log2(total) requests) instead of paging through every newer row.
 * Rows arriving meanwhile only push rows to later offsets, so the answer can come out early,
 * never late: the window still skips the newer rows it then reads. Returns 0 when the first
 * page already reaches past --until.
 */
export async function seekUntil(probe: OffsetProbe, until: number, pageSize = 100): Promise<number> {
  const olderAt = async (offset: number): Promise<{ older: boolean; total: number }> => {
    const p = await probe(offset);
    if (p.id === undefined) return { older: true, total: p.total }; // past the end
    return { older: eventTime({ id: p.id, created_at: p.createdAt }, '--until') < until, total: p.total };
  };
  const edge = await olderAt(pageSize - 1);
  if (edge.older) return 0;
  let lo = pageSize;
  let hi = edge.total;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((await olderAt(mid)).older) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
