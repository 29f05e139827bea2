import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat, parseBulk } from '../../src/posts/bulk/rows.js';
import { rowKeys } from '../../src/posts/bulk/keys.js';
import { summarize } from '../../src/posts/bulk/summary.js';
import type { BulkResult } from '../../src/posts/bulk/result.js';
import { journalPath, openJournal, readJournal } from '../../src/posts/bulk/journal.js';
import { collectFacts } from '../../src/posts/body.js';
import { mediaInspector } from '../../src/posts/media-facts.js';
import { validateDraft } from '../../src/posts/validate.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.parse('2026-06-01T12:00:00Z');
const opts = (label: string) => ({ label, baseDir: dir, zone: 'Europe/Paris', now: NOW });

describe('bulk files', () => {
  it('detects the format by name, else by content', () => {
    expect(detectFormat('a.csv', '{')).toBe('csv');
    expect(detectFormat('a.jsonl', 'at,')).toBe('ndjson');
    expect(detectFormat('stdin', '  {"payloads":{}}')).toBe('ndjson');
    expect(detectFormat('stdin', 'at,platforms,text')).toBe('csv');
  });

  it('reads CSV rows with the documented columns', () => {
    const text = [
      'At,Platforms,Text,media,title,text:bluesky',
      '2026-12-01 09:00,twitter-x|bluesky,"Hello, world",https://cdn.example/a.jpg,Launch,"Hi, sky"',
      '2026-12-02T09:00:00Z,linkedin;threads,"two\nlines",,,ignored for these platforms',
    ].join('\n');
    const { rows, fileIssues, format } = parseBulk(text, opts('plan.csv'));
    expect(format).toBe('csv');
    expect(fileIssues).toEqual([]);
    expect(rows.map((r) => r.issues)).toEqual([[], []]);
    expect(rows[0]!.at!.iso).toBe('2026-12-01T08:00:00.000Z');
    expect(rows[0]!.draft!.title).toBe('Launch');
    expect(rows[0]!.draft!.platforms.map((p) => [p.platform, p.text, p.media.map((m) => m.source)])).toEqual([
      ['twitter-x', 'Hello, world', ['https://cdn.example/a.jpg']],
      ['bluesky', 'Hi, sky', ['https://cdn.example/a.jpg']],
    ]);
    expect(rows[1]!.line).toBe(3);
    expect(rows[1]!.draft!.platforms.map((p) => [p.platform, p.text])).toEqual([
      ['linkedin', 'two\nlines'],
      ['threads', 'two\nlines'],
    ]);
  });

  it('asks for the zone only when a row has a local time', () => {
    const asked: string[] = [];
    const zone = () => {
      asked.push('zone');
      return 'Europe/Paris';
    };
    const offsets = parseBulk('at,platforms,text\n2026-12-02T09:00:00Z,bluesky,hi\n', { ...opts('offsets.csv'), zone });
    expect(offsets.rows.map((r) => r.at?.iso)).toEqual(['2026-12-02T09:00:00.000Z']);
    expect(asked).toEqual([]);
    const local = parseBulk('at,platforms,text\n2026-12-01 09:00,bluesky,hi\n', { ...opts('local.csv'), zone });
    expect(local.rows.map((r) => r.at?.iso)).toEqual(['2026-12-01T08:00:00.000Z']);
    expect(asked).toEqual(['zone']);
  });

  it('refuses a CSV header without required columns, or with unknown ones', () => {
    const { fileIssues } = parseBulk('when,platforms,txt\n', opts('bad.csv'));
    const msgs = fileIssues.map((i) => i.message);
    expect(msgs).toContain('bad.csv: header column 1 "when" is not a known column');
    expect(msgs).toContain('bad.csv: the header has no "at" column');
    expect(fileIssues.find((i) => i.message.includes('"txt"'))?.fix).toMatch(/did you mean "text"/);
    expect(parseBulk('at,platforms,text\n', opts('empty.csv')).fileIssues[0]?.message).toBe('empty.csv: no rows');
    expect(parseBulk('at,platforms,text\n1,"open\n', opts('q.csv')).fileIssues[0]?.message).toMatch(/never closed/);
  });

  it('lists every bad row and field with its line', () => {
    const text = [
      'at,platforms,text',
      '2026-12-01 09:00,bluesky,ok',
      '+2h,bluesky,relative',
      '2020-01-01T00:00:00Z,bluesky,past',
      '2026-12-01 09:00,blusky,typo',
      '2026-12-01 09:00,bluesky',
      '2026-03-29 02:30,bluesky,gap',
    ].join('\n');
    const { rows } = parseBulk(text, opts('plan.csv'));
    for (const r of rows) if (r.draft) r.issues.push(...validateDraft(r.draft, () => undefined));
    const msgs = rows.map((r) => r.issues.map((i) => i.message).join(' | '));
    expect(msgs[0]).toBe('');
    expect(msgs[1]).toMatch(/^line 3: at: relative time/);
    expect(msgs[2]).toMatch(/^line 4: at: "2020-01-01T00:00:00Z" .* is in the past/);
    expect(msgs[3]).toBe('line 5: platforms: "blusky" is not a platform id');
    expect(msgs[4]).toBe('line 6: 2 fields, the header has 3');
    expect(msgs[5]).toMatch(/line 7: at: 2026-03-29 02:30 does not exist in Europe\/Paris/);
  });

  it("names the row of a title problem (YouTube's), in CSV and in NDJSON", () => {
    const title = (text: string, label: string) => {
      const row = parseBulk(text, opts(label)).rows[0]!;
      return validateDraft(row.draft!, () => undefined).filter((i) => i.message.includes('title'));
    };
    const csv = ['at,platforms,text,media,title', '2026-12-01 09:00,youtube,watch,https://cdn.example/v.mp4,'].join('\n');
    expect(title(csv, 'plan.csv')).toEqual([{ field: 'line 2: title', message: 'line 2: title: YouTube needs a title', fix: 'give the post a title (at most 100 characters)' }]);
    const ndjson = JSON.stringify({ payloads: { youtube: { text: 'watch', media: [{ url: 'https://cdn.example/v.mp4' }] } }, title: 't'.repeat(101), scheduledAt: '2026-12-01T09:00:00Z' });
    expect(title(ndjson, 'plan.ndjson').map((i) => i.message)).toEqual(['line 1: title: the title is 101 characters; YouTube takes at most 100']);
    // A payload's own title and link are named by their path in that row.
    const own = JSON.stringify({ payloads: { pinterest: { text: 'pin', title: 'p'.repeat(101), link: `https://example.com/${'l'.repeat(2048)}`, media: [{ url: 'https://cdn.example/p.jpg' }] } }, scheduledAt: '2026-12-01T09:00:00Z' });
    const row = parseBulk(own, opts('plan.ndjson')).rows[0]!;
    expect(validateDraft(row.draft!, () => undefined).map((i) => i.field)).toEqual(['line 1: payloads.pinterest.title', 'line 1: payloads.pinterest.link']);
  });

  it('reads NDJSON schedule bodies, drafts by id, and bad lines', () => {
    const text = [
      JSON.stringify({ payloads: { bluesky: { text: 'a' } }, scheduledAt: '2026-12-01T09:00:00Z', title: 'x' }),
      '',
      JSON.stringify({ postId: 'post_1', scheduledAt: '2026-12-01T10:00:00+01:00' }),
      '{"payloads": {"bluesky": {"text": "b"}}, "scheduledAt": }',
      JSON.stringify({ payloads: { bluesky: { text: 'c' } } }),
    ].join('\n');
    const { rows } = parseBulk(text, opts('p.ndjson'));
    expect(rows).toHaveLength(4);
    expect(rows[0]!.issues).toEqual([]);
    expect(rows[1]).toMatchObject({ line: 3, postId: 'post_1', issues: [] });
    expect(rows[1]!.at!.iso).toBe('2026-12-01T09:00:00.000Z');
    expect(rows[2]!.issues[0]!.message).toMatch(/^line 4, column 57: invalid JSON/);
    expect(rows[3]!.issues[0]!.message).toBe('line 5: scheduledAt: missing');
  });

  it('derives row keys from content: stable when rows are inserted, distinct for identical rows', async () => {
    const row = (t: string) => JSON.stringify({ payloads: { bluesky: { text: t } }, scheduledAt: '2026-12-01T09:00:00Z' });
    const keysOf = async (lines: string[], profile = 'default') => {
      const { rows } = parseBulk(lines.join('\n'), opts('k.ndjson'));
      const facts = await collectFacts(rows.flatMap((r) => (r.draft ? [r.draft] : [])), mediaInspector());
      return [...rowKeys(rows, facts, profile).values()];
    };
    const a = await keysOf([row('a'), row('b'), row('b')]);
    expect(new Set(a).size).toBe(3);
    const b = await keysOf([row('new'), row('a'), row('b'), row('b')]);
    expect(b.slice(1)).toEqual(a);
    expect(await keysOf([row('a')], 'other')).not.toEqual([a[0]]);
    // Key order inside the JSON does not matter.
    const reordered = JSON.stringify({ scheduledAt: '2026-12-01T09:00:00Z', payloads: { bluesky: { text: 'a' } } });
    expect((await keysOf([reordered]))[0]).toBe(a[0]);
  });
});

describe('bulk summary', () => {
  const failed = (row: number, code: string): BulkResult => ({ row, line: row + 1, outcome: 'failed', id: null, status: null, scheduledAt: null, error: { code, message: code.toLowerCase(), requestId: null, hints: [] } });
  it('tells rows a re-run may fix (outage) from rows the service refused as written (a 4xx)', () => {
    const rows = [failed(1, 'SERVER'), failed(2, 'VALIDATION_ERROR'), failed(3, 'VALIDATION_ERROR')];
    const lines = summarize(rows, 'week.csv', new Set([2, 3])).text.split('\n');
    expect(lines[0]).toBe('3 rows in week.csv: 0 created, 0 already done, 3 failed');
    expect(lines.slice(-2)).toEqual([
      '  run the same command again to retry the failed rows (done rows are skipped)',
      '  the service refused 2 of them as written: fix them in the file, then run the same command again (done rows are skipped)',
    ]);
    expect(summarize([failed(1, 'SERVER')], 'week.csv').text.split('\n').at(-1)).toBe('  run the same command again to retry the failed rows (done rows are skipped)');
  });
});

describe('bulk journal', () => {
  it('appends synced lines, survives a torn last line, and reads back the state', () => {
    const path = journalPath(join(dir, 'cfg'), 'my profile', 'http://127.0.0.1:1', 'abc');
    expect(path).toMatch(/journals[\\/]my_profile-[0-9a-f]{24}\.ndjson$/);
    expect(journalPath(join(dir, 'cfg'), 'my profile', 'http://127.0.0.1:2', 'abc')).not.toBe(path);
    const j = openJournal(path);
    j.append({ t: 'run', at: 'now', file: 'f', rows: 3, resume: true, v: 1 });
    j.append({ t: 'send', row: 0, key: 'k0' });
    j.append({ t: 'done', row: 0, key: 'k0', id: 'post_0', status: 'scheduled', scheduledAt: 'x', replayed: false });
    j.append({ t: 'fail', row: 1, key: 'k1', code: 'SERVER', message: 'boom' });
    j.append({ t: 'media', row: 2, path: '/a.jpg', url: 'https://u/a' });
    j.close();
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    // A kill in the middle of a write leaves half a line.
    appendFileSync(path, '{"t":"done","row":2,"key":"k2","id":"po');
    const state = readJournal(path);
    expect([...state.done.keys()]).toEqual([0]);
    expect(state.failed.get(1)).toEqual({ code: 'SERVER', message: 'boom' });
    expect(state.media.get(2)?.get('/a.jpg')).toBe('https://u/a');
    expect(state.runs).toBe(1);
    // The next run starts on a fresh line, so its entries are readable.
    const j2 = openJournal(path);
    j2.append({ t: 'done', row: 1, key: 'k1', id: 'post_1', status: 'scheduled', scheduledAt: 'y', replayed: true });
    j2.close();
    const again = readJournal(path);
    expect([...again.done.keys()].sort()).toEqual([0, 1]);
    expect(again.failed.size).toBe(0);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(7);
  });

  it('reads a missing journal as empty', () => {
    writeFileSync(join(dir, 'garbage.ndjson'), 'not json\n\n');
    expect(readJournal(join(dir, 'nope.ndjson')).done.size).toBe(0);
    expect(readJournal(join(dir, 'garbage.ndjson')).done.size).toBe(0);
  });
});
