import { describe, expect, it } from 'vitest';
import { calendarData, displayWidth, fit, parseFrom, renderCalendar, todayIn, viewDays } from '../../src/posts/calendar.js';
import type { Post } from '../../src/wire/schemas.js';

const post = (id: string, at: string, payloads: Record<string, string>, title?: string): Post => ({
  id,
  status: 'scheduled',
  scheduledAt: at,
  payloads: Object.fromEntries(Object.entries(payloads).map(([p, text]) => [p, { text }])),
  ...(title ? { title } : {}),
});

// Europe/Paris leaves summer time on Sunday 25 October 2026 at 03:00 CEST (01:00Z) → 02:00 CET.
const posts: Post[] = [
  post('post_1', '2026-10-24T22:30:00Z', { instagram: 'a', 'twitter-x': 'a' }, 'Sunday early'),
  post('post_2', '2026-10-25T00:30:00Z', { linkedin: 'Before the change, at 02:30 summer time' }),
  post('post_3', '2026-10-25T01:30:00Z', { bluesky: 'After the change, at 02:30 winter time' }),
  post('post_4', '2026-10-25T22:30:00Z', { threads: 'Late Sunday 漢字😀 wide text' }),
  post('post_5', '2026-10-25T23:30:00Z', { tiktok: 'Monday already' }),
  post('post_6', '2026-10-21T07:00:00Z', { tiktok: 'Wednesday nine' }),
  { id: 'post_7', status: 'draft', scheduledAt: null, payloads: { x: { text: 'draft' } } },
];
const week = calendarData(posts, { view: 'week', from: { year: 2026, month: 10, day: 22 }, zone: 'Europe/Paris' });
const month = calendarData(posts, { view: 'month', from: { year: 2026, month: 10, day: 22 }, zone: 'Europe/Paris' });
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('calendarData (the --json shape)', () => {
  it('groups by local day across the change from summer time: a 25-hour Sunday keeps 23:30 CET', () => {
    expect(week.from).toBe('2026-10-19');
    expect(week.to).toBe('2026-10-25');
    expect(week.days.map((d) => d.date)).toEqual(['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25']);
    const sunday = week.days[6]!;
    expect(sunday.weekday).toBe('Sun');
    expect(sunday.posts.map((p) => [p.id, p.time])).toEqual([
      ['post_1', '00:30'],
      ['post_2', '02:30'],
      ['post_3', '02:30'],
      ['post_4', '23:30'],
    ]);
    expect(week.days[2]!.posts).toEqual([{ id: 'post_6', time: '09:00', scheduledAt: '2026-10-21T07:00:00Z', platforms: ['tiktok'], title: 'Wednesday nine', status: 'scheduled' }]);
    expect(week.next).toMatchObject({ id: 'post_5', date: '2026-10-26', time: '00:30' });
  });

  it('another zone puts the same posts on other days', () => {
    const ny = calendarData(posts, { view: 'week', from: { year: 2026, month: 10, day: 22 }, zone: 'America/New_York' });
    expect(ny.days.find((d) => d.date === '2026-10-24')!.posts.map((p) => [p.id, p.time])).toEqual([
      ['post_1', '18:30'],
      ['post_2', '20:30'],
      ['post_3', '21:30'],
    ]);
  });

  it('a month holds every day of it', () => {
    expect(month.days).toHaveLength(31);
    expect(month.days.flatMap((d) => d.posts.map((p) => p.id))).toEqual(['post_6', 'post_1', 'post_2', 'post_3', 'post_4', 'post_5']);
    expect(month.next).toBeNull();
  });

  it('weeks run Monday to Sunday, months from the 1st', () => {
    expect(viewDays('week', { year: 2026, month: 11, day: 1 }).map((d) => d.day)).toEqual([26, 27, 28, 29, 30, 31, 1]);
    expect(viewDays('month', { year: 2028, month: 2, day: 10 })).toHaveLength(29);
  });

  it('--from and today', () => {
    expect(parseFrom('2026-10-25', 0, 'UTC')).toEqual({ year: 2026, month: 10, day: 25 });
    expect(() => parseFrom('25/10/2026', 0, 'UTC')).toThrow('--from: "25/10/2026" is not a date');
    const now = Date.parse('2026-10-24T22:30:00Z');
    expect(todayIn(now, 'Europe/Paris')).toBe('2026-10-25');
    expect(todayIn(now, 'UTC')).toBe('2026-10-24');
    expect(parseFrom(undefined, now, 'Asia/Tokyo')).toMatchObject({ year: 2026, month: 10, day: 25 });
    // Next week, last week, a month, counted from today in the zone.
    expect(parseFrom('+1w', now, 'Europe/Paris')).toEqual({ year: 2026, month: 11, day: 1 });
    expect(parseFrom('-1w', now, 'UTC')).toEqual({ year: 2026, month: 10, day: 17 });
    expect(parseFrom('+10d', now, 'UTC')).toEqual({ year: 2026, month: 11, day: 3 });
    expect(parseFrom('2026-12', now, 'UTC')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(() => parseFrom('2026-13', now, 'UTC')).toThrow('--from: "2026-13" is not a date');
    expect(() => parseFrom('+1m', now, 'UTC')).toThrow(/is not a date/);
  });

  it('--from reads what posts queue --from reads: a day by name, a local time, a relative time', () => {
    const now = Date.parse('2026-10-24T22:30:00Z'); // a Saturday in UTC, already Sunday in Paris
    expect(parseFrom('tomorrow', now, 'UTC')).toEqual({ year: 2026, month: 10, day: 25 });
    expect(parseFrom('tomorrow', now, 'Europe/Paris')).toEqual({ year: 2026, month: 10, day: 26 });
    expect(parseFrom('today', now, 'Europe/Paris')).toEqual({ year: 2026, month: 10, day: 25 });
    expect(parseFrom('2026-12-07 23:30', now, 'UTC')).toEqual({ year: 2026, month: 12, day: 7 });
    expect(parseFrom('2026-12-07T23:30:00-05:00', now, 'Europe/Paris')).toEqual({ year: 2026, month: 12, day: 8 });
    expect(parseFrom('+2h', now, 'UTC')).toEqual({ year: 2026, month: 10, day: 25 });
    expect(() => parseFrom('someday', now, 'UTC')).toThrow('--from: "someday" is not a date or time');
  });
});

describe('renderCalendar', () => {
  const widths = [24, 40, 60, 79, 100, 132, 200];
  it.each(widths)('no line is wider than %i columns, in either view', (width) => {
    for (const data of [week, month]) {
      const lines = renderCalendar(data, { width, today: '2026-10-22', highlight: (s) => `\u001b[7m${s}\u001b[27m` });
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(displayWidth(plain(line))).toBeLessThanOrEqual(width);
    }
  });

  it('wide terminals get a week grid: days as columns, times as rows, both 02:30 posts in one row', () => {
    const lines = renderCalendar(week, { width: 120, today: '2026-10-22' }).map(plain);
    expect(lines[0]).toBe('19 Oct – 25 Oct 2026 · Europe/Paris');
    expect(lines[1]).toMatch(/^ {6}Mon 19 +Tue 20 +Wed 21 +Thu 22 +Fri 23 +Sat 24 +Sun 25$/);
    const rows = lines.slice(3, lines.indexOf(''));
    expect(rows.map((l) => l.slice(0, 5))).toEqual(['00:30', '02:30', '     ', '09:00', '23:30']);
    const sunColumn = lines[1]!.indexOf('Sun 25');
    expect(rows[1]!.slice(sunColumn)).toMatch(/^li Before the/);
    expect(rows[2]!.slice(sunColumn)).toMatch(/^bs After the/);
    expect(rows[0]!.slice(sunColumn)).toMatch(/^ig,x Sunday/);
    expect(rows[3]!.slice(lines[1]!.indexOf('Wed 21'))).toMatch(/^tt Wednesday/);
  });

  it('narrow terminals get a list by day with full platform names', () => {
    const lines = renderCalendar(week, { width: 40, today: '2026-10-22' });
    expect(lines).toContain('Sun 25 Oct');
    expect(lines).toContain('  02:30 linkedin Before the change, at …');
    expect(lines).toContain('  00:30 instagram,twitter-x Sunday early');
    expect(lines.indexOf('Thu 22 Oct') + 1).toBe(lines.indexOf('  (nothing scheduled)'));
  });

  it('in the list by day, a long platform list gives way to a count rather than taking the whole line', () => {
    const six = { 'twitter-x': 'a', bluesky: 'a', linkedin: 'a', threads: 'a', pinterest: 'a', instagram: 'a' };
    const many = calendarData([post('post_8', '2026-10-21T07:00:00Z', six, 'Wait test for every network')], { view: 'week', from: { year: 2026, month: 10, day: 22 }, zone: 'Europe/Paris' });
    const narrow = renderCalendar(many, { width: 60, today: '2026-10-22' });
    expect(narrow).toContain('  09:00 6 platforms Wait test for every network');
    for (const line of narrow) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('highlights today only, and marks it when asked (no colour)', () => {
    const hl = (s: string) => `<${s}>`;
    const grid = renderCalendar(week, { width: 120, today: '2026-10-22', highlight: hl });
    expect(grid[1]).toMatch(/<Thu 22 +>/);
    expect(grid.join('\n').match(/</g)).toHaveLength(1);
    const marked = renderCalendar(month, { width: 120, today: '2026-10-25', todayMarker: '*' });
    expect(marked.some((l) => /(^| )\*25( |$)/.test(l))).toBe(true);
  });

  it('a month grid lists posts under their day, "+N more" beyond perDay', () => {
    const lines = renderCalendar(month, { width: 120, today: '2026-10-01', perDay: 2 }).map(plain);
    expect(lines[1]).toMatch(/^Mon +Tue +Wed +Thu +Fri +Sat +Sun$/);
    const weekRow = lines.findIndex((l) => /^19 +20 +21 +22 +23 +24 +25$/.test(l));
    expect(weekRow).toBeGreaterThan(0);
    const sun = lines[weekRow]!.indexOf('25');
    expect(lines[weekRow + 1]!.slice(sun)).toMatch(/^00:30 ig,x Sun/);
    expect(lines[weekRow + 2]!.slice(sun)).toMatch(/^02:30 li Before/);
    expect(lines[weekRow + 3]!.slice(sun)).toBe('+2 more');
    expect(lines[weekRow + 1]!.slice(lines[weekRow]!.indexOf('21'))).toMatch(/^09:00 tt Wednes…/);
  });

  it('the platform legend is printed only where the cells show platforms (a 60-column month shows times only)', () => {
    const wide = renderCalendar(month, { width: 120, today: '2026-10-01' }).map(plain);
    expect(wide.join('\n')).toMatch(/\bli linkedin\b/);
    const narrow = renderCalendar(month, { width: 60, today: '2026-10-01' }).map(plain);
    expect(narrow.some((l) => /^Mon +Tue/.test(l))).toBe(true); // still a grid, not the list by day
    expect(narrow.join('\n')).not.toMatch(/\b(li|ig|x|tt|bs)\b/);
    expect(narrow.join('\n')).not.toContain('linkedin');
    expect(renderCalendar(week, { width: 120, today: '2026-10-22' }).map(plain).join('\n')).toMatch(/\bli linkedin\b/);
  });

  it('an empty week says so and hints the next scheduled post', () => {
    const empty = calendarData(posts, { view: 'week', from: { year: 2026, month: 10, day: 12 }, zone: 'Europe/Paris' });
    expect(empty.days.every((d) => d.posts.length === 0)).toBe(true);
    expect(renderCalendar(empty, { width: 100, today: '2026-10-12' })).toEqual([
      '12 Oct – 18 Oct 2026 · Europe/Paris',
      'No posts this week.',
      'Next scheduled: Wed 21 Oct 2026 09:00 tiktok Wednesday nine (post_6)',
      '  see it with: socialpub posts calendar --week --from 2026-10-21',
    ]);
    const none = calendarData([], { view: 'week', from: { year: 2026, month: 10, day: 12 }, zone: 'UTC' });
    expect(renderCalendar(none, { width: 100, today: '2026-10-12' }).slice(1)).toEqual(['No posts this week.', 'No later post is scheduled either.']);
  });
});

describe('fit and displayWidth', () => {
  it('counts wide characters and emoji as two cells, marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('漢字')).toBe(4);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth('👩‍👩‍👧')).toBe(2);
    expect(displayWidth('é')).toBe(1);
  });
  it('cuts at a grapheme boundary with … and pads to the width exactly', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fit('漢字漢字', 5)).toBe('漢字…');
    expect(fit('a😀b', 3)).toBe('a… ');
    expect(displayWidth(fit('👩‍👩‍👧👩‍👩‍👧x', 4))).toBe(4);
  });
});
