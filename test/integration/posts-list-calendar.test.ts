// `posts list` and `posts calendar` as a manager reads them, at 60, 80 and 120 columns with CJK
// and emoji texts: partial outcomes, dates rather than only "in 12 days", the platforms kept,
// published and failed posts on the calendar with a legend, and a calendar written to a file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { displayWidth } from '../../src/output/width.js';
import { allPosts, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const FIVE = 'bluesky,linkedin,threads,twitter-x,facebook-page';
const CJK = '今日は新しい機能を発表します。皆さんのご意見をお待ちしております 🎉';
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m|\u001b\]8;[^\u0007]*\u0007/g, '');
let partialId: string;
let laterId: string;

const run = (argv: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(argv, { env: cliEnv(sb), clock: sandboxClock(sb.clock), ...options });

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0.5 });
  for (let i = 0; i < 6; i++) {
    const r = await run(['posts', 'schedule', '--platform', FIVE, '--text', `${CJK} ${i}`, '--at', `+${i + 1}h`]);
    expect(r.code, r.stderr).toBe(0);
  }
  const later = await run(['posts', 'schedule', '--platform', 'bluesky', '--text', 'Launch day 🚀🚀 see you all there', '--at', '+12d', '-q']);
  laterId = later.stdout.trim();
  const soon = await run(['posts', 'schedule', '--platform', 'linkedin', '--text', 'Thursday: the long post about our roadmap for next year', '--at', '+2d']);
  expect(soon.code).toBe(0);
  await sandboxClock(sb.clock).sleep(7 * 3_600_000);
  const partial = (await allPosts(sb)).find((p) => {
    const outcomes = Object.values(p.targets ?? {});
    return outcomes.includes('published') && outcomes.includes('failed');
  });
  expect(partial, 'the seed gives a post that partly failed').toBeDefined();
  partialId = partial!.id;
});
afterAll(async () => {
  await sb?.close();
});

describe('posts list', () => {
  it.each([60, 80, 120])('at %i columns: fits, and the platforms stay', async (columns) => {
    const r = await run(['posts', 'list', '--limit', '50'], { tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    const lines = plain(r.stdout).trimEnd().split('\n');
    expect(lines.length).toBe(9);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    expect(lines[0]).toMatch(/PLATFORMS/);
    expect(lines.find((l) => l.startsWith(laterId))).toMatch(/bluesky/);
    // The partial outcome stays readable, in short when room is short ("failed 2/5").
    const partial = lines.find((l) => l.startsWith(partialId));
    expect(partial).toMatch(/failed (\d\/5|· \d\/5 published) /);
    expect(partial).not.toMatch(/publ…/);
  });

  it('shows a partial outcome in the status column on a terminal; TSV keeps the status alone', async () => {
    const r = await run(['posts', 'list', '--limit', '50'], { tty: true, columns: 120 });
    const outcomes = (await allPosts(sb)).find((p) => p.id === partialId)!.targets!;
    const published = Object.values(outcomes).filter((o) => o === 'published').length;
    expect(plain(r.stdout).split('\n').find((l) => l.startsWith(partialId))).toMatch(new RegExp(`failed · ${published}/5 published`));
    const tsv = await run(['posts', 'list', '--limit', '50']);
    expect(tsv.stdout.split('\n').find((l) => l.startsWith(partialId))!.split('\t')[1]).toBe('failed');
  });

  it('at 120 columns a post twelve days out shows its date, in --tz', async () => {
    const r = await run(['posts', 'list', '--status', 'scheduled', '--tz', 'Asia/Tokyo'], { tty: true, columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    // Scheduled at 09:00 UTC on 1 Dec plus 12 days: 18:00 in Tokyo on the 13th.
    expect(plain(r.stdout).split('\n').find((l) => l.startsWith(laterId))).toMatch(/2026-12-13 18:00 GMT\+9 \(in 12 days\)/);
    const bad = await run(['posts', 'list', '--tz', 'Mars/Olympus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tz/);
  });

  it('help mentions -o ics', async () => {
    const r = await run(['posts', 'list', '--help']);
    expect(r.stdout).toMatch(/-o ics/);
  });
});

describe('posts calendar', () => {
  it.each([60, 80, 120])('at %i columns: published (✓) and failed (✗) posts too, no line wider', async (columns) => {
    const r = await run(['posts', 'calendar', '--tz', 'UTC'], { tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    const text = plain(r.stdout);
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    expect(text).toMatch(/✗/);
    expect(text).toMatch(/Thursday|Thu/);
  });

  it('at 80 columns a week wraps each post over up to three lines, and a legend names the platforms', async () => {
    const r = await run(['posts', 'calendar', '--tz', 'UTC'], { tty: true, columns: 80 });
    const lines = plain(r.stdout).trimEnd().split('\n');
    const thursday = lines[1]!.indexOf('Thu 3');
    expect(thursday).toBeGreaterThan(0);
    const cell = lines.slice(3).filter((l) => /^\d\d:\d\d|^ {5}/.test(l) && l.length > thursday).map((l) => l.slice(thursday, thursday + 9).trim()).filter(Boolean);
    expect(cell).toEqual(['li', 'Thursday:', 'the long…']);
    expect(lines.slice(-2).join(' · ')).toMatch(/^bs bluesky · fb facebook-page · li linkedin · th threads · x twitter-x · ✗ failed$/);
    expect(plain(r.stdout)).toMatch(/✗ failed/);
  });

  it('printed to a file, nothing is cut to 80 columns', async () => {
    const r = await run(['posts', 'calendar', '--tz', 'UTC']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/li Thursday: the long post about\n {20,}our roadmap for next year\n/);
    expect(r.stdout).not.toContain('…');
    expect(Math.max(...r.stdout.split('\n').map((l) => displayWidth(l)))).toBeGreaterThan(80);
  });

  it('-o csv is the posts of the period, one row each under a header (RFC 4180), as the --json days hold them', async () => {
    const csv = await run(['posts', 'calendar', '--tz', 'UTC', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe('id,scheduledAt,date,time,platforms,status,title');
    expect(lines.pop()).toBe('');
    const json = JSON.parse((await run(['posts', 'calendar', '--tz', 'UTC', '--json'])).stdout) as { days: Array<{ date: string; posts: Array<{ id: string; time: string; status: string; platforms: string[] }> }> };
    const posts = json.days.flatMap((d) => d.posts.map((p) => `${p.id},${d.date},${p.time},${p.status},${p.platforms.join(',')}`));
    expect(posts.length).toBeGreaterThan(3);
    // platforms hold commas: the field is quoted.
    expect(lines.slice(1).map((l) => l.replace(/^([^,]+),[^,]+,([^,]+),([^,]+),("[^"]*"|[^,]*),([^,]+),.*$/, '$1,$2,$3,$5,$4').replace(/"/g, ''))).toEqual(posts);
    expect(lines.find((l) => l.includes('Thursday: the long post'))).toMatch(/,linkedin,scheduled,Thursday: the long post about our roadmap for next year$/);
    // Piped as TSV, the calendar is still drawn.
    expect((await run(['posts', 'calendar', '--tz', 'UTC', '-o', 'tsv'])).stdout).toMatch(/^\d+ \w+ – \d+ \w+ \d{4} · UTC\n/);
  });

  it('-o ics points to posts list -o ics', async () => {
    const r = await run(['posts', 'calendar', '-o', 'ics']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('socialpub posts list --status scheduled --all -o ics');
    expect(r.stdout).toBe('');
  });
});

describe('posts list --fields: a name means the same in TSV and JSON', () => {
  it('title is the title alone, text the first text, headline the column "TITLE / TEXT", platforms the targets', async () => {
    const tsv = await run(['posts', 'list', '--status', 'scheduled', '--fields', 'id,title,text,headline,platforms']);
    expect(tsv.code, tsv.stderr).toBe(0);
    const row = tsv.stdout.split('\n').find((l) => l.startsWith(laterId))!.split('\t');
    expect(row).toEqual([laterId, '', 'Launch day 🚀🚀 see you all there', 'Launch day 🚀🚀 see you all there', 'bluesky']);
    const json = await run(['posts', 'list', '--status', 'scheduled', '--json', '--fields', 'id,title,text,headline,platforms']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as unknown[]).find((p) => (p as { id: string }).id === laterId)).toEqual({
      id: laterId,
      title: null,
      text: 'Launch day 🚀🚀 see you all there',
      headline: 'Launch day 🚀🚀 see you all there',
      platforms: ['bluesky'],
    });
    // Without --fields, JSON rows are the service's, nothing added.
    const plainJson = await run(['posts', 'list', '--status', 'scheduled', '--json']);
    expect(Object.keys((JSON.parse(plainJson.stdout) as object[])[0]!)).not.toContain('headline');
  });
});
