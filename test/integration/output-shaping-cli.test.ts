// What output does for every command, end to end through the in-process CLI against the
// sandbox: --fields (JSON, TSV, unknown field), --jq (whole list once, per row, bad expression
// before any request), -o ics parsed back by a calendar parser, posts calendar at several widths
// and across a DST change, and results get --web without a browser.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import { allResults, api, cliEnv, keyOf, sandboxFor, START, type Sandbox } from './results-support.js';

type Sb = Sandbox & { clock: ManualClock };
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m|\u001b\]8;;[^\u0007]*\u0007/g, '');

describe('--fields and --jq', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 600, failureRate: 0.3, seed: 21 })));
  afterAll(async () => sb?.close());

  it('--fields picks nested fields in JSON and orders TSV columns', async () => {
    const json = await runCli(['results', 'list', '--limit', '3', '--json', '--fields', 'id,error.code'], { env: cliEnv(sb), clock: sb.clock });
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(Object.keys(r)).toEqual(['id', 'error']);
    const tsv = await runCli(['results', 'list', '--limit', '3', '--fields', 'platform,id'], { env: cliEnv(sb), clock: sb.clock });
    expect(tsv.code, tsv.stderr).toBe(0);
    const all = await allResults(sb, keyOf(sb, 'demo'));
    expect(tsv.stdout.trim().split('\n')).toEqual(all.slice(0, 3).map((r) => `${r.platform}\t${r.id}`));
  });

  it('an unknown field is exit 2 naming the fields there are', async () => {
    const r = await runCli(['results', 'list', '--limit', '2', '--fields', 'id,nope'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields: unknown field "nope"');
    expect(r.stderr).toContain('error.code');
  });

  it('an unknown field is exit 2 under --json too when the list is empty (nothing, not [], on stdout)', async () => {
    const env = { ...cliEnv(sb), SOCIALPUB_API_KEY: keyOf(sb, 'other') };
    const r = await runCli(['posts', 'list', '--json', '--fields', 'id,nope'], { env, clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields: unknown field "nope"');
    expect(r.stdout).toBe('');
    const known = await runCli(['posts', 'list', '--json', '--fields', 'id,text'], { env, clock: sb.clock });
    expect(known.code, known.stderr).toBe(0);
    expect(JSON.parse(known.stdout)).toEqual([]);
  });

  it('posts view, posts queue and posts calendar: an unknown field is exit 2, a field this post lacks is null', async () => {
    const created = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'untitled', '-q'], { env: cliEnv(sb), clock: sb.clock });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const view = await runCli(['posts', 'view', id, '--json', '--fields', 'id,nope'], { env: cliEnv(sb), clock: sb.clock });
    expect(view.code).toBe(2);
    expect(view.stderr).toContain('--fields: unknown field "nope"');
    expect(view.stdout).toBe('');
    const lacking = await runCli(['posts', 'view', id, '--json', '--fields', 'id,title,results'], { env: cliEnv(sb), clock: sb.clock });
    expect(lacking.code, lacking.stderr).toBe(0);
    expect(JSON.parse(lacking.stdout)).toEqual({ id, title: null, results: [] });
    for (const command of [['posts', 'queue'], ['posts', 'calendar']]) {
      const r = await runCli([...command, '--json', '--fields', 'zone,nope'], { env: cliEnv(sb), clock: sb.clock });
      expect(r.code, command.join(' ')).toBe(2);
      expect(r.stderr).toContain('the fields are: ');
      const ok = await runCli([...command, '--json', '--fields', 'zone'], { env: cliEnv(sb), clock: sb.clock });
      expect(ok.code, ok.stderr).toBe(0);
      expect(Object.keys(JSON.parse(ok.stdout) as object)).toEqual(['zone']);
    }
  });

  it('posts view and posts calendar as text: --fields shows only those fields, as a record in the order asked', async () => {
    const created = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'fields as text', '--title', 'Shown', '-q'], { env: cliEnv(sb), clock: sb.clock });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    for (const tty of [false, true]) {
      const r = await runCli(['posts', 'view', id, '--fields', 'title,id,payloads.bluesky.text'], { env: { ...cliEnv(sb), SOCIALPUB_PAGER: 'cat' }, clock: sb.clock, tty, columns: 120 });
      expect(r.code, r.stderr).toBe(0);
      expect(plain(r.stdout).trimEnd().split('\n')).toEqual([`  title                  Shown`, `  id                     ${id}`, `  payloads.bluesky.text  fields as text`]);
    }
    const calendar = await runCli(['posts', 'calendar', '--fields', 'zone'], { env: cliEnv(sb), clock: sb.clock });
    expect(calendar.code, calendar.stderr).toBe(0);
    expect(calendar.stdout).toMatch(/^ {2}zone {2}\S+\n$/);
  });

  it('api: --jq and --fields shape one response body; an error body is printed whole', async () => {
    const total = await runCli(['api', '/v1/posts?limit=2', '--jq', '.meta.limit'], { env: cliEnv(sb), clock: sb.clock });
    expect(total.code, total.stderr).toBe(0);
    expect(total.stdout).toBe('2\n');
    const ids = await runCli(['api', '/api/v1/post-results?limit=3', '--jq', '.data[].id'], { env: cliEnv(sb), clock: sb.clock });
    expect(ids.stdout.trim().split('\n')).toHaveLength(3);
    expect(ids.stdout).toMatch(/^res_/);
    const meta = await runCli(['api', '/v1/posts?limit=1', '--json', '--fields', 'meta.total'], { env: cliEnv(sb), clock: sb.clock });
    expect(meta.code, meta.stderr).toBe(0);
    expect(JSON.parse(meta.stdout)).toEqual({ meta: { total: expect.any(Number) } });
    const missing = await runCli(['api', '/v1/posts/post_nope', '--jq', '.id'], { env: cliEnv(sb), clock: sb.clock });
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('--all --jq length is one number over every page (not one per page)', async () => {
    const r = await runCli(['results', 'list', '--all', '--jq', 'length'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${(await allResults(sb, keyOf(sb, 'demo'))).length}\n`);
  });

  it('-o ndjson --jq runs once per row; strings come out raw', async () => {
    const r = await runCli(['results', 'list', '--limit', '5', '-o', 'ndjson', '--jq', '.id'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const all = await allResults(sb, keyOf(sb, 'demo'));
    expect(r.stdout).toBe(all.slice(0, 5).map((x) => x.id).join('\n') + '\n');
  });

  it('a bad --jq expression is exit 2 before any request', async () => {
    const before = sb.requests.length;
    const r = await runCli(['results', 'list', '--jq', '.['], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --jq: /m);
    expect(sb.requests.length).toBe(before);
  });

  it('results get --web with no browser prints the live URL', async () => {
    const ok = (await allResults(sb, keyOf(sb, 'demo'))).find((x) => x.success && x.platform_data?.url)!;
    const r = await runCli(['results', 'get', ok.id, '--web'], { env: { ...cliEnv(sb), BROWSER: undefined, SOCIALPUB_BROWSER: undefined }, clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${ok.platform_data!.url}\n`);
  });
});

describe('calendars', () => {
  let sb: Sb;
  const ids: string[] = [];
  beforeAll(async () => {
    sb = await sandboxFor({ seed: 4 });
    // Around the end of summer time in Paris (25 Oct 2026, 03:00 → 02:00); START is 1 Dec 2026,
    // so these are scheduled relative to a clock moved back first.
    for (const at of ['2026-12-02T08:00:00Z', '2026-12-03T17:30:00Z', '2026-12-03T23:30:00Z', '2026-12-09T09:00:00Z']) {
      const r = await api<{ id: string }>(sb, keyOf(sb, 'demo'), 'POST', '/v1/schedule', { payloads: { bluesky: { text: `Launch ${at}` }, linkedin: { text: 'x' } }, scheduledAt: at, title: `Launch ${at.slice(0, 10)}` });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.id);
    }
    await api(sb, keyOf(sb, 'demo'), 'POST', '/v1/posts', { payloads: { threads: { text: 'a draft' } } });
  });
  afterAll(async () => sb?.close());

  it('posts list -o ics imports into a calendar parser: one VEVENT per scheduled post', async () => {
    const r = await runCli(['posts', 'list', '--status', 'scheduled', '-o', 'ics'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(r.stdout.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const events = new ICAL.Component(ICAL.parse(r.stdout)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.map((e) => e.uid).sort()).toEqual([...ids].sort());
    const first = events.find((e) => e.uid === ids[0])!;
    expect(first.startDate.toJSDate().toISOString()).toBe('2026-12-02T08:00:00.000Z');
    expect(first.summary).toBe('Launch 2026-12-02');
    // A scheduled post is a confirmed event of a quarter of an hour (calendars need an end).
    expect(first.endDate.toJSDate().toISOString()).toBe('2026-12-02T08:15:00.000Z');
    expect(first.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    const refused = await runCli(['results', 'list', '-o', 'ics'], { env: cliEnv(sb), clock: sb.clock });
    expect(refused.code).toBe(2);
  });

  it('posts calendar --json groups by local day in the zone (23:30 UTC is the next day in Paris)', async () => {
    const r = await runCli(['posts', 'calendar', '--json', '--tz', 'Europe/Paris'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout) as { from: string; to: string; days: Array<{ date: string; posts: Array<{ id: string; time: string }> }>; next: { id: string } | null };
    expect(data.from).toBe('2026-11-30');
    expect(data.to).toBe('2026-12-06');
    const byDay = Object.fromEntries(data.days.map((d) => [d.date, d.posts.map((p) => p.time)]));
    expect(byDay['2026-12-02']).toEqual(['09:00']);
    expect(byDay['2026-12-03']).toEqual(['18:30']);
    expect(byDay['2026-12-04']).toEqual(['00:30']);
    expect(data.next?.id).toBe(ids[3]);
  });

  for (const columns of [40, 60, 80, 120, 200]) {
    it(`posts calendar on a ${columns}-column terminal: no line wider than the terminal`, async () => {
      const r = await runCli(['posts', 'calendar', '--tz', 'Europe/Paris'], { env: cliEnv(sb), clock: sb.clock, tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      const lines = plain(r.stdout).split('\n');
      expect(lines.length).toBeGreaterThan(2);
      const { displayWidth } = await import('../../src/output/width.js');
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    });
  }

  it('an empty week says so and hints the next scheduled post', async () => {
    const r = await runCli(['posts', 'calendar', '--from', '2026-12-21', '--tz', 'UTC'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/No posts this week/);
    expect(r.stdout).toMatch(/No later post is scheduled either/);
  });
});

void START;
