// `posts calendar`: the posts of a week or a month laid out in the user's zone: those scheduled,
// and those of the period already published (✓) or failed (✗).
// Pure: the caller passes the posts, the zone, "now", the width and the style functions; this
// returns data (grouped by local day, the --json shape) and lines that fit the width.
import type { Post } from '../wire/schemas.js';
import { postSummary } from './ics.js';
import { TimeInputError } from './when.js';
import { windowEdge } from './window-edge.js';
import { addDays, clockText, dateKey, localTime, parseDateKey, startOfLocalDay, weekdayOf, type LocalDate } from './local-day.js';

export type CalendarView = 'week' | 'month';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Short platform names for grid cells, where every column counts. */
const SHORT: Record<string, string> = {
  'twitter-x': 'x',
  instagram: 'ig',
  linkedin: 'li',
  'facebook-page': 'fb',
  tiktok: 'tt',
  youtube: 'yt',
  bluesky: 'bs',
  threads: 'th',
  pinterest: 'pin',
};

export interface CalendarPost {
  id: string;
  /** Local "HH:MM" in the zone. */
  time: string;
  /** UTC, as the service gave it. */
  scheduledAt: string;
  platforms: string[];
  title: string;
  /** scheduled, published or failed. */
  status: string;
}

export interface CalendarDay {
  /** Local "YYYY-MM-DD". */
  date: string;
  weekday: string;
  posts: CalendarPost[];
}

/** The `--json` shape: the range's days in the zone, each with its posts in time order. */
export interface CalendarData {
  view: CalendarView;
  zone: string;
  /** First and last local day shown. */
  from: string;
  to: string;
  days: CalendarDay[];
  /** The first scheduled post after the range (for the "nothing this week" hint), or null. */
  next: (CalendarPost & { date: string }) | null;
}

/** The calendar's posts, one after another with their local day: a CSV row each. */
export function* calendarRows(data: CalendarData): Generator<CalendarPost & { date: string }> {
  for (const day of data.days) for (const post of day.posts) yield { ...post, date: day.date };
}

export interface CalendarInput {
  view: CalendarView;
  /** A day inside the week or month to show. */
  from: LocalDate;
  zone: string;
}

/** Today's local date in the zone, as "YYYY-MM-DD" (RenderOptions.today). */
export function todayIn(now: number, zone: string): string {
  return dateKey(localTime(now, zone));
}

/**
 * `--from`: a day ("YYYY-MM-DD"), a month ("YYYY-MM", its first day), or days and weeks from
 * today ("+1w" next week, "-1w" last week, "+3d"); today in the zone when absent.
 */
export function parseFrom(input: string | undefined, now: number, zone: string): LocalDate {
  if (input === undefined) return localTime(now, zone);
  const text = input.trim();
  const month = /^(\d{4})-(\d{2})$/.exec(text);
  const shift = /^([+-])(\d{1,4})([dw])$/i.exec(text);
  const hint = 'give a day (2026-12-07, tomorrow, fri), a time as posts queue --from takes it (+2h, "2026-12-07 09:00"), a month as YYYY-MM, or +1w for next week; the week or month holding it is shown';
  if (month) {
    const d = parseDateKey(`${text}-01`);
    if (!d) throw new TimeInputError('--from', `--from: "${input}" is not a date`, hint);
    return d;
  }
  if (shift) return addDays(localTime(now, zone), (shift[1] === '-' ? -1 : 1) * Number(shift[2]) * (shift[3]!.toLowerCase() === 'w' ? 7 : 1));
  // "+1m" is a minute to posts queue: here it would be a month meant and this one shown.
  if (/^\+\s*\d+\s*m$/i.test(text)) throw new TimeInputError('--from', `--from: "${input}" is not a date (+1m is a minute, not a month)`, hint);
  // Otherwise read as posts queue reads it (a day alone, or any --at form): the day it falls on.
  try {
    const { year, month: m, day } = localTime(windowEdge(text, '--from', now, zone), zone);
    return { year, month: m, day };
  } catch (err) {
    if (err instanceof TimeInputError) throw new TimeInputError('--from', `--from: "${input}" is not a date or time`, hint);
    throw err;
  }
}

/** The days a view covers: the Monday-to-Sunday week holding `from`, or every day of its month. */
export function viewDays(view: CalendarView, from: LocalDate): LocalDate[] {
  if (view === 'week') {
    const monday = addDays(from, -weekdayOf(from));
    return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  }
  const first = { year: from.year, month: from.month, day: 1 };
  const length = new Date(Date.UTC(from.year, from.month, 0)).getUTCDate();
  return Array.from({ length }, (_, i) => addDays(first, i));
}

/** Groups scheduled posts by their local day in the zone, for the view around `from`. */
export function calendarData(posts: Iterable<Post>, input: CalendarInput): CalendarData {
  const days = viewDays(input.view, input.from);
  const start = startOfLocalDay(days[0]!, input.zone);
  const end = startOfLocalDay(addDays(days.at(-1)!, 1), input.zone);
  const byDate = new Map<string, CalendarDay>(days.map((d) => [dateKey(d), { date: dateKey(d), weekday: WEEKDAYS[weekdayOf(d)]!, posts: [] }]));
  let next: { at: number; post: CalendarPost & { date: string } } | undefined;
  const placed: { at: number; day: CalendarDay; post: CalendarPost }[] = [];
  for (const post of posts) {
    const at = post.scheduledAt ? Date.parse(post.scheduledAt) : NaN;
    if (Number.isNaN(at)) continue;
    const local = localTime(at, input.zone);
    const entry: CalendarPost = { id: post.id, time: clockText(local), scheduledAt: post.scheduledAt!, platforms: Object.keys(post.payloads), title: postSummary(post), status: post.status };
    if (at >= start && at < end) placed.push({ at, day: byDate.get(dateKey(local))!, post: entry });
    else if (at >= end && post.status === 'scheduled' && (!next || at < next.at)) next = { at, post: { ...entry, date: dateKey(local) } };
  }
  placed.sort((a, b) => a.at - b.at || (a.post.id < b.post.id ? -1 : 1));
  for (const p of placed) p.day.posts.push(p.post);
  return { view: input.view, zone: input.zone, from: dateKey(days[0]!), to: dateKey(days.at(-1)!), days: [...byDate.values()], next: next?.post ?? null };
}

export interface RenderOptions {
  /** Columns available; no line is wider. Infinity (a file): cells as wide as their posts need, up to a limit. */
  width: number;
  /** Word wrap by display width: a cell's post over up to three lines; default: one line, cut. */
  wrap?: (text: string, width: number, maxLines: number) => string[];
  /** Local "YYYY-MM-DD" of today in the zone (highlighted). */
  today: string;
  /** Terminal cells a string takes (wide characters and emoji count 2); default: displayWidth. */
  widthOf?: (text: string) => number;
  /** Applied to today's label after it is fitted (chalk.inverse, say); default none. */
  highlight?: (text: string) => string;
  /** Put before today's label when there is no colour to show it ("*"); default none. */
  todayMarker?: string;
  /** Month cells: posts listed per day before "+N more". */
  perDay?: number;
}

/** Below these cell widths the grid gives way to a list by day. */
const MIN_WEEK_CELL = 9;
const MIN_MONTH_CELL = 5;
/** Month cells narrower than this show a post's time and mark only, no platforms. */
const MONTH_CELL_WITH_PLATFORMS = 11;
/** Without a width (printed to a file): cells up to this wide. */
const FREE_WEEK_CELL = 32;
const FREE_MONTH_CELL = 24;
/** Lines a post may take in a week cell. */
const POST_LINES = 3;

/** The lines to print for the data: a grid when it fits, else a list by day; an empty range says so. */
export function renderCalendar(data: CalendarData, options: RenderOptions): string[] {
  const o = resolved(options);
  const title = rangeTitle(data);
  const total = data.days.reduce((n, d) => n + d.posts.length, 0);
  if (total === 0) return fitAll([title, ...emptyLines(data)], o);
  const free = !Number.isFinite(o.width);
  const widest = Math.max(...data.days.flatMap((d) => d.posts.map((p) => o.widthOf(entryText(p)))));
  if (data.view === 'week') {
    const cell = free ? Math.max(MIN_WEEK_CELL, Math.min(FREE_WEEK_CELL, widest)) : Math.floor((o.width - 5 - 7) / 7);
    return fitAll([title, ...(cell >= MIN_WEEK_CELL ? [...weekGrid(data, cell, o), ...legend(data, o, true)] : agenda(data, o))], o);
  }
  const cell = free ? Math.min(FREE_MONTH_CELL, Math.max(MONTH_CELL_WITH_PLATFORMS, widest + 6)) : Math.floor((o.width - 6) / 7);
  return fitAll([title, ...(cell >= MIN_MONTH_CELL ? [...monthGrid(data, cell, o), ...legend(data, o, cell >= MONTH_CELL_WITH_PLATFORMS)] : agenda(data, o))], o);
}

/** ✓ for a published post, ✗ for a failed one, nothing for a scheduled one. */
const mark = (p: CalendarPost) => (p.status === 'published' ? '✓ ' : p.status === 'failed' ? '✗ ' : '');
/** A post in a grid cell: its mark, short platform names, and the start of its title. */
const entryText = (p: CalendarPost) => `${mark(p)}${short(p.platforms)} ${p.title}`;

/**
 * Under a grid: what the short platform names and the marks stand for (only those shown: cells
 * too narrow for platforms get no platform names explained).
 */
function legend(data: CalendarData, o: Resolved, cellsShowPlatforms: boolean): string[] {
  const posts = data.days.flatMap((d) => d.posts);
  const names = cellsShowPlatforms ? [...new Set(posts.flatMap((p) => p.platforms))].sort().filter((p) => SHORT[p] && SHORT[p] !== p) : [];
  const parts = names.map((p) => `${SHORT[p]} ${p}`);
  if (posts.some((p) => p.status === 'published')) parts.push('✓ published');
  if (posts.some((p) => p.status === 'failed')) parts.push('✗ failed');
  // Broken between entries, never inside one ("✗" apart from "failed" would explain nothing).
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && o.widthOf(`${lines[last]} · ${part}`) <= o.width) lines[last] = `${lines[last]} · ${part}`;
    else lines.push(part);
  }
  return lines.length ? ['', ...lines] : [];
}

type Resolved = Required<Omit<RenderOptions, 'todayMarker'>> & { todayMarker: string };

function resolved(o: RenderOptions): Resolved {
  const widthOf = o.widthOf ?? displayWidth;
  const oneLine = (text: string, width: number) => [Number.isFinite(width) && widthOf(text) > width ? cut(text, width, widthOf) : text];
  return { widthOf, highlight: (s) => s, perDay: 3, todayMarker: '', wrap: oneLine, ...o, width: Math.max(1, Math.floor(o.width)) };
}

function rangeTitle(data: CalendarData): string {
  const from = parseKey(data.from);
  if (data.view === 'month') return `${MONTH_NAMES[from.month - 1]} ${from.year} · ${data.zone}`;
  const to = parseKey(data.to);
  return `${dayText(from)} – ${dayText(to)} ${to.year} · ${data.zone}`;
}

function emptyLines(data: CalendarData): string[] {
  const what = data.view === 'week' ? 'this week' : 'this month';
  const lines = [`No posts ${what}.`];
  if (data.next) {
    const d = parseKey(data.next.date);
    lines.push(`Next scheduled: ${WEEKDAYS[weekdayOf(d)]} ${dayText(d)} ${d.year} ${data.next.time} ${data.next.platforms.join(',')} ${data.next.title} (${data.next.id})`);
    lines.push(`  see it with: socialpub posts calendar --${data.view} --from ${data.next.date}`);
  } else {
    lines.push('No later post is scheduled either.');
  }
  return lines;
}

/** Days as columns, times as rows; each post over up to three lines; posts at the same time on one day stack in the row. */
function weekGrid(data: CalendarData, cell: number, o: Resolved): string[] {
  const header =
    '     ' +
    data.days
      .map((d) => {
        const label = `${d.date === o.today ? o.todayMarker : ''}${d.weekday} ${Number(d.date.slice(8))}`;
        const fitted = fit(label, cell, o.widthOf);
        return ' ' + (d.date === o.today ? o.highlight(fitted) : fitted);
      })
      .join('');
  const lines = [header, '─'.repeat(5 + 7 * (cell + 1))];
  const times = [...new Set(data.days.flatMap((d) => d.posts.map((p) => p.time)))].sort();
  for (const time of times) {
    const cells = data.days.map((d) => d.posts.filter((p) => p.time === time).flatMap((p) => o.wrap(entryText(p), cell, POST_LINES)));
    const height = cells.reduce((h, c) => Math.max(h, c.length), 0);
    for (let i = 0; i < height; i++) {
      const label = i === 0 ? time : '     ';
      lines.push(label + cells.map((c) => ' ' + fit(c[i] ?? '', cell, o.widthOf)).join(''));
    }
  }
  return lines;
}

/** A month as a grid of weeks; each day shows its number, then up to perDay posts and "+N more". */
function monthGrid(data: CalendarData, cell: number, o: Resolved): string[] {
  const lines = [WEEKDAYS.map((w) => fit(w, cell, o.widthOf)).join(' ')];
  const first = parseKey(data.days[0]!.date);
  const lead = weekdayOf(first);
  const slots: (CalendarDay | undefined)[] = [...Array<undefined>(lead).fill(undefined), ...data.days];
  while (slots.length % 7) slots.push(undefined);
  for (let w = 0; w < slots.length; w += 7) {
    const week = slots.slice(w, w + 7);
    lines.push('─'.repeat(7 * cell + 6));
    lines.push(
      week
        .map((d) => {
          if (!d) return fit('', cell, o.widthOf);
          const fitted = fit(`${d.date === o.today ? o.todayMarker : ''}${Number(d.date.slice(8))}`, cell, o.widthOf);
          return d.date === o.today ? o.highlight(fitted) : fitted;
        })
        .join(' '),
    );
    const height = Math.max(0, ...week.map((d) => Math.min(d?.posts.length ?? 0, o.perDay + 1)));
    for (let i = 0; i < height; i++) {
      lines.push(
        week
          .map((d) => {
            const posts = d?.posts ?? [];
            let text = '';
            if (posts.length > o.perDay + 1 && i === o.perDay) text = `+${posts.length - o.perDay} more`;
            else if (posts[i]) text = cell >= MONTH_CELL_WITH_PLATFORMS ? `${posts[i]!.time} ${entryText(posts[i]!)}` : `${posts[i]!.time}${mark(posts[i]!).trim()}`;
            return fit(text, cell, o.widthOf);
          })
          .join(' '),
      );
    }
  }
  return lines;
}

/** Narrow terminals: each day with posts as a heading, its posts one per line. */
function agenda(data: CalendarData, o: Resolved): string[] {
  const lines: string[] = [];
  for (const d of data.days) {
    if (d.posts.length === 0 && d.date !== o.today) continue;
    const label = `${d.date === o.today ? o.todayMarker : ''}${d.weekday} ${dayText(parseKey(d.date))}`;
    lines.push(d.date === o.today ? o.highlight(fit(label, Math.min(o.width, o.widthOf(label)), o.widthOf)) : label);
    if (d.posts.length === 0) lines.push('  (nothing scheduled)');
    for (const p of d.posts) {
      const head = `  ${p.time} ${mark(p)}`;
      lines.push(`${head}${agendaPlatforms(p.platforms, o.width - o.widthOf(head) - AGENDA_TITLE_ROOM)} ${p.title}`);
    }
  }
  return lines;
}

/** Cells of a title an agenda line keeps beside its platforms. */
const AGENDA_TITLE_ROOM = 13;

/** The full platform names, or "6 platforms" where they would leave the title no room. */
function agendaPlatforms(platforms: string[], room: number): string {
  const list = platforms.join(',');
  return platforms.length > 1 && displayWidth(list) > room ? `${platforms.length} platforms` : list;
}

const short = (platforms: string[]) => platforms.map((p) => (Object.hasOwn(SHORT, p) ? SHORT[p] : p)).join(',');
const dayText = (d: LocalDate) => `${d.day} ${MONTHS[d.month - 1]}`;

function parseKey(key: string): LocalDate {
  return { year: +key.slice(0, 4), month: +key.slice(5, 7), day: +key.slice(8, 10) };
}

/** Cuts every line wider than the width (highlight codes are not counted) and drops trailing padding. */
function fitAll(lines: string[], o: Resolved): string[] {
  if (!Number.isFinite(o.width)) return lines.map((l) => l.trimEnd());
  return lines.map((l) => (o.widthOf(stripAnsi(l)) > o.width ? cut(stripAnsi(l), o.width, o.widthOf) : l).trimEnd());
}

const ANSI = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const stripAnsi = (s: string) => s.replace(ANSI, '');

/** Exactly `width` cells: cut with "…" at a grapheme boundary, or padded with spaces. */
export function fit(text: string, width: number, widthOf: (s: string) => number = displayWidth): string {
  const w = widthOf(text);
  if (w <= width) return text + ' '.repeat(width - w);
  const c = cut(text, width, widthOf);
  return c + ' '.repeat(Math.max(0, width - widthOf(c)));
}

function cut(text: string, width: number, widthOf: (s: string) => number): string {
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of segmenter().segment(text)) {
    const w = widthOf(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

let graphemes: Intl.Segmenter | undefined;
const segmenter = () => (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]|\p{Extended_Pictographic}/u;
const ZERO = /^[\p{Mn}\p{Me}\u200b-\u200f\ufe0f]+$/u;

/** Terminal cells of a string: per grapheme, 2 for wide (CJK, emoji), 0 for marks alone, else 1. */
export function displayWidth(text: string): number {
  let n = 0;
  for (const { segment } of segmenter().segment(text)) {
    if (ZERO.test(segment)) continue;
    n += WIDE.test(segment) ? 2 : 1;
  }
  return n;
}
