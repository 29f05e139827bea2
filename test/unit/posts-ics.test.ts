import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, icsEvent, icsTime, postSummary } from '../../src/posts/ics.js';
import { icsCalendar, type IcsTally } from '../helpers/ics-calendar.js';
import type { Post } from '../../src/wire/schemas.js';

const NOW = Date.parse('2026-11-23T08:00:00Z');

const posts: Post[] = [
  { id: 'post_A1', status: 'scheduled', scheduledAt: '2026-11-24T09:30:00.000Z', title: 'Launch; day, one', payloads: { instagram: { text: 'Big news\nsee bio' }, linkedin: { text: 'Big news\nsee bio' } } },
  {
    id: 'post_B2',
    status: 'scheduled',
    scheduledAt: '2026-11-25T17:05:00.000Z',
    payloads: { 'twitter-x': { text: 'Über-long: ' + 'ünïcödé 漢字 😀 '.repeat(12) + '\\ back' }, bluesky: { text: 'short' } },
  },
  { id: 'post_C3', status: 'draft', scheduledAt: null, payloads: { threads: { text: 'a draft' } } },
];

async function calendar(list: Post[], tally?: IcsTally): Promise<string> {
  let out = '';
  for await (const chunk of icsCalendar(list, { now: NOW }, tally)) out += chunk;
  return out;
}

describe('ics writer', () => {
  it('is parsed back by ical.js: one VEVENT per post with a time, UID, DTSTART in UTC, SUMMARY, DESCRIPTION', async () => {
    const tally = { events: 0, skipped: 0 };
    const text = await calendar(posts, tally);
    expect(tally).toEqual({ events: 2, skipped: 1 });
    const cal = new ICAL.Component(ICAL.parse(text));
    const events = cal.getAllSubcomponents('vevent');
    expect(events).toHaveLength(2);
    const [a, b] = events.map((e) => new ICAL.Event(e));
    expect(a!.uid).toBe('post_A1');
    expect(a!.startDate.toJSDate().toISOString()).toBe('2026-11-24T09:30:00.000Z');
    expect(a!.startDate.zone?.tzid).toBe('UTC');
    expect(a!.summary).toBe('Launch; day, one');
    expect(a!.description).toBe('Platforms: instagram, linkedin\n\nBig news\nsee bio');
    expect(events[0]!.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-11-23T08:00:00Z');
    expect(b!.uid).toBe('post_B2');
    expect(b!.summary).toMatch(/^Über-long: ünïcödé 漢字 😀 .*…$/);
    expect(b!.description).toBe(`Platforms: twitter-x, bluesky\n\ntwitter-x: ${(posts[1]!.payloads['twitter-x'] as { text: string }).text}\n\nbluesky: short`);
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
  });

  it('ends every line with CRLF and keeps every physical line within 75 octets, never splitting a code point', async () => {
    const text = await calendar(posts);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    for (const line of lines) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/\uFFFD/);
      // A lone surrogate would mean a code point was cut in two.
      expect(line).toBe(Buffer.from(line, 'utf8').toString('utf8'));
    }
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(3);
  });

  it('folds at exactly 75 octets, with a 4-octet emoji on the edge', () => {
    const ascii = foldLine('X'.repeat(74) + '😀' + 'Y');
    // 74 + 4 > 75: the emoji moves whole to the next line.
    expect(ascii.split('\r\n')).toEqual(['X'.repeat(74), ' 😀Y', '']);
    const exact = foldLine('Z'.repeat(75));
    expect(exact).toBe('Z'.repeat(75) + '\r\n');
    const long = foldLine('é'.repeat(100)).split('\r\n');
    expect(long.map((l) => Buffer.byteLength(l))).toEqual([74, 75, 53, 0]); // 37, 1 + 37 and 1 + 26 two-octet letters;
  });

  it('escapes backslash, semicolon, comma and newlines, and drops control characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\u0007g')).toBe('a\\\\b\\;c\\,d\\ne\\nfg');
  });

  it('writes UTC times in the basic form', () => {
    expect(icsTime(Date.parse('2026-03-29T01:02:03.456Z'))).toBe('20260329T010203Z');
  });

  it('leaves out a post without a time, and a summary falls back to the start of the text', () => {
    expect(icsEvent(posts[2]!, { now: NOW })).toBeUndefined();
    expect(postSummary({ payloads: { x: { text: 'one two three' } } })).toBe('one two three');
    expect(postSummary({ payloads: { x: { text: `${'word '.repeat(20)}` } } })).toMatch(/^(word ){10,}?word…$/);
    expect(postSummary({ payloads: {} })).toBe('(no text)');
  });

  it('an empty list is a valid, empty calendar', async () => {
    const cal = new ICAL.Component(ICAL.parse(await calendar([])));
    expect(cal.name).toBe('vcalendar');
    expect(cal.getAllSubcomponents('vevent')).toEqual([]);
  });
});

describe('event status and end', () => {
  const at = '2026-12-02T08:00:00Z';
  const post = (status: string, targets?: Record<string, string>) => ({ id: `post_${status}`, status, scheduledAt: at, payloads: { bluesky: { text: 'x' }, linkedin: { text: 'x' } }, ...(targets ? { targets } : {}) });
  it.each([
    ['scheduled', undefined, 'CONFIRMED'],
    ['published', { bluesky: 'published', linkedin: 'published' }, 'CONFIRMED'],
    ['failed', { bluesky: 'published', linkedin: 'failed' }, 'CONFIRMED'],
    ['failed', { bluesky: 'failed', linkedin: 'failed' }, 'CANCELLED'],
  ])('%s %j → STATUS:%s, DTEND 15 minutes after DTSTART', (status, targets, expected) => {
    const event = icsEvent(post(status, targets), { now: Date.parse(at) })!;
    expect(event).toContain(`STATUS:${expected}\r\n`);
    expect(event).toContain('DTSTART:20261202T080000Z\r\nDTEND:20261202T081500Z\r\n');
  });
});
