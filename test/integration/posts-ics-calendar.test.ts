// Calendars from real posts: scheduled posts read from the sandbox over HTTP, written as
// iCalendar and parsed back, and grouped by local day.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { ApiClient } from '../../src/client/types.js';
import { calendarData } from '../../src/posts/calendar.js';
import { icsCalendar } from '../helpers/ics-calendar.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { Post } from '../../src/wire/schemas.js';
import { api, keyOf, sandboxFor, START, type Sandbox } from './results-support.js';

describe('calendars of sandbox posts', () => {
  let sb: Sandbox & { clock: ManualClock };
  let client: ApiClient;
  const made: { id: string; at: string; text: string; title?: string }[] = [];

  beforeAll(async () => {
    sb = await sandboxFor({ seed: 9 });
    client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    // 130 posts (two pages), one every 2 hours from tomorrow; every third with a long multi-byte title.
    for (let i = 0; i < 130; i++) {
      const at = new Date(START + 86_400_000 + i * 7_200_000).toISOString();
      const title = i % 3 === 0 ? `Lancement n°${i} — «édition spéciale» 🎉 ${'très long texte, avec; des\\ signes '.repeat(3)}` : undefined;
      const body = { payloads: { instagram: { text: `Post ${i}` }, linkedin: { text: `Post ${i}` } }, scheduledAt: at, ...(title ? { title } : {}) };
      const r = await api<{ id: string }>(sb, keyOf(sb, 'demo'), 'POST', '/v1/schedule', body);
      expect(r.status).toBe(201);
      made.push({ id: r.body.id, at, text: `Post ${i}`, ...(title ? { title } : {}) });
    }
    await api(sb, keyOf(sb, 'demo'), 'POST', '/v1/posts', { payloads: { threads: { text: 'a draft' } } });
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });

  it('posts list -o ics: every scheduled post comes back from a parser with its id, time and title', async () => {
    let text = '';
    const tally = { events: 0, skipped: 0 };
    for await (const chunk of icsCalendar(client.posts.iterate({ status: ['scheduled'] }), { now: START }, tally)) text += chunk;
    expect(tally).toEqual({ events: 130, skipped: 0 });
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    const byUid = new Map(events.map((e) => [e.uid, e]));
    expect(byUid.size).toBe(130);
    for (const m of made) {
      const e = byUid.get(m.id)!;
      expect(e.startDate.toJSDate().toISOString()).toBe(m.at);
      expect(e.summary).toBe(m.title ? m.title.trim() : m.text);
      expect(e.description).toBe(`Platforms: instagram, linkedin\n\n${m.text}`);
    }
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('a draft in the list is left out and counted', async () => {
    const tally = { events: 0, skipped: 0 };
    for await (const _ of icsCalendar(client.posts.iterate({}), { now: START }, tally)) void _;
    expect(tally).toEqual({ events: 130, skipped: 1 });
  });

  it('the calendar groups the same posts by local day: 12 a day in Tokyo', async () => {
    const posts: Post[] = [];
    for await (const p of client.posts.iterate({ status: ['scheduled'] })) posts.push(p);
    const data = calendarData(posts, { view: 'week', from: { year: 2026, month: 12, day: 4 }, zone: 'Asia/Tokyo' });
    expect(data.from).toBe('2026-11-30');
    const counts = data.days.map((d) => d.posts.length);
    // Tomorrow (2 Dec 09:00Z) is 18:00 in Tokyo: 3 posts that evening, then 12 every full day.
    expect(counts).toEqual([0, 0, 3, 12, 12, 12, 12]);
    expect(data.days[2]!.posts[0]!.time).toBe('18:00');
    expect(data.next?.date).toBe('2026-12-07');
  });
});
