import { describe, expect, it } from 'vitest';
import { captureStream } from '../helpers/run-cli.js';
import { plainColors } from '../../src/output/colors.js';
import { layoutTable } from '../../src/output/layout.js';
import { displayWidth, stripEscapes } from '../../src/output/width.js';
import { tableWriter, type Column } from '../../src/output/writers.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].map((g) => g.segment);

interface Row {
  id: string;
  status: string;
  platforms: string[];
  text: string;
  url: string;
}

const long = 'Lorem ipsum dolor sit amet 日本語 👩‍💻 👍🏽 مرحبا بالعالم '.repeat(60).slice(0, 3000);
const rows: Row[] = [
  { id: 'post_01HZY3K9Q2', status: '✓ published', platforms: ['bluesky', 'mastodon', 'linkedin', 'x', 'threads'], text: long, url: 'https://bsky.app/profile/socialpub.example/post/3kq2abcdefgh' },
  { id: 'post_01HZY3K9Q3', status: '✗ failed', platforms: ['x'], text: '新しい製品を発表しました！🎉 詳細はリンクから', url: 'https://x.com/socialpub/status/1790000000000000000' },
  { id: 'post_01HZY3K9Q4', status: '✓ published', platforms: ['mastodon'], text: 'שלום עולם — RTL text with ‏marks‏ and\nnewlines\tand tabs', url: 'https://mastodon.social/@socialpub/112233445566778899' },
  { id: 'post_01HZY3K9Q5', status: '… pending', platforms: ['bluesky', 'x'], text: '👩‍💻👩‍💻👩‍💻👍🏽👍🏽🇫🇷🇫🇷 emoji only', url: '' },
];

const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id, priority: 3, shrink: 'never' },
  { header: 'status', value: (r) => r.status, priority: 0 },
  { header: 'platforms', value: (r) => r.platforms.join(', '), compact: (r) => (r.platforms.length > 1 ? `${r.platforms.length} platforms` : r.platforms.join('')), priority: 2 },
  { header: 'text', value: (r) => r.text, priority: 1, minWidth: 10 },
  { header: 'url', value: (r) => r.url, priority: 2, shrink: 'never', minWidth: 20 },
];

async function render(width: number): Promise<string[]> {
  const out = captureStream(true, width);
  const w = tableWriter(out, columns, plainColors, width);
  for (const r of rows) await w.write(r);
  await w.end();
  return out.text().replace(/\n$/, '').split('\n');
}

const known = new Set(['…', ' ', ...rows.flatMap((r) => Object.values(r).flatMap((v) => graphemes(Array.isArray(v) ? v.join(', ') + ' platforms 0123456789' : v))), ...graphemes('IDSTATUSPLATFORMSTEXTURL')]);

describe('tables fit the terminal', () => {
  it.each([40, 60, 80, 120, 200])('at %i columns no line is wider and no grapheme is split', async (width) => {
    const lines = await render(width);
    expect(lines).toHaveLength(1 + rows.length);
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(width);
      for (const g of graphemes(stripEscapes(line))) expect(known.has(g), `grapheme ${JSON.stringify(g)} in ${JSON.stringify(line)}`).toBe(true);
    }
    expect(lines[0]).toMatch(/^ID|^STATUS/);
  });

  it('keeps the URL whole while something less important can give', async () => {
    for (const width of [120, 200]) {
      const lines = await render(width);
      expect(lines[1]).toContain(rows[0]!.url);
      expect(lines[2]).toContain(rows[1]!.url);
    }
  });

  it('drops the least important column before cutting text to nothing', async () => {
    const lines = await render(80);
    expect(lines[0]).not.toContain('ID');
    expect(lines[1]).not.toContain('post_01');
    expect(lines[1]).toContain('✓ published');
  });

  it('uses the compact rendering instead of cutting a long list', async () => {
    const lines = await render(120);
    expect(lines[1]).toContain('5 platforms');
    const wide = await render(1000);
    expect(wide[1]).toContain('bluesky, mastodon, linkedin, x, threads');
  });

  it('uses the compact rendering for a list held to its maxWidth, which cuts it as surely as a narrow line', () => {
    const capped = [
      { header: 'STATUS', priority: 0 },
      { header: 'PLATFORMS', priority: 2, maxWidth: 24 },
      { header: 'TEXT', priority: 1 },
    ];
    const data = [['published', 'instagram,twitter-x,pinterest,bluesky', 'Release 4.2 is out. '.repeat(10)]];
    const compactRows = [[undefined, '4 platforms', undefined]];
    const l = layoutTable({ columns: capped, rows: data, compactRows, width: 120 });
    expect(l.columns.map((c) => [c.index, c.width, c.compact])).toEqual([
      [0, 9, false],
      [1, 11, true],
      [2, 120 - 9 - 11 - 4, false],
    ]);
    // Short enough for its cap: the list stays as it is.
    const short = layoutTable({ columns: capped, rows: [['published', 'youtube,threads', 'hello']], compactRows: [[undefined, '2 platforms', undefined]], width: 120 });
    expect(short.columns[1]).toEqual({ index: 1, width: 15, compact: false });
  });

  it('never cuts a header: a column is dropped rather than made narrower than its name, compact or not', () => {
    const cols = [
      { header: 'ID', priority: 0, shrink: 'never' as const },
      { header: 'PLATFORMS', priority: 3 },
      { header: 'SCHEDULED', priority: 4 },
      { header: 'TITLE / TEXT', priority: 2, minWidth: 10 },
    ];
    const rows = [['post_2vDthd1ctmZP', 'bluesky,linkedin,threads', '—', 'A fairly long text for the table at sixty columns']];
    const compactRows = [[undefined, '3 platforms', '—', undefined]];
    for (const width of [40, 50, 60, 70]) {
      const l = layoutTable({ columns: cols, rows, compactRows, width });
      for (const c of l.columns) expect({ width, header: cols[c.index]!.header, fits: c.width >= cols[c.index]!.header.length }).toEqual({ width, header: cols[c.index]!.header, fits: true });
    }
    // At 50 the least important column goes whole.
    expect(layoutTable({ columns: cols, rows, compactRows, width: 50 }).dropped).toEqual([2]);
  });

  it('flattens newlines and tabs in cells', async () => {
    const lines = await render(200);
    expect(lines[3]).toContain('RTL text with ‏marks‏ and newlines and tabs');
  });
});

describe('layoutTable', () => {
  const cols = [
    { header: 'A', priority: 0 },
    { header: 'B', priority: 1 },
    { header: 'C', priority: 2 },
  ];
  const sample = [['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(20)]];

  it('gives everything its natural width when it fits', () => {
    expect(layoutTable({ columns: cols, rows: sample, width: 100 }).columns.map((c) => c.width)).toEqual([20, 20, 20]);
    expect(layoutTable({ columns: cols, rows: sample, width: 0 }).columns.map((c) => c.width)).toEqual([20, 20, 20]);
  });

  it('shrinks the least important column first', () => {
    const l = layoutTable({ columns: cols, rows: sample, width: 54 });
    expect(l.columns.map((c) => c.width)).toEqual([20, 20, 10]);
  });

  it('then drops it when the minimums do not fit', () => {
    const l = layoutTable({ columns: cols.map((c) => ({ ...c, minWidth: 15 })), rows: sample, width: 40 });
    expect(l.dropped).toEqual([2]);
    expect(l.columns.map((c) => [c.index, c.width])).toEqual([
      [0, 20],
      [1, 18],
    ]);
  });

  it('a never-cut column takes what is left only when nothing less important can give', () => {
    const url = 'https://example.com/' + 'x'.repeat(40);
    const withUrl = [{ header: 'STATUS', priority: 0 }, { header: 'URL', priority: 1, shrink: 'never' as const, minWidth: 20 }, { header: 'ID', priority: 2, shrink: 'never' as const }];
    const data = [['published', url, 'post_123456789']];
    const roomy = layoutTable({ columns: withUrl, rows: data, width: 80 });
    expect(roomy.dropped).toEqual([2]);
    expect(roomy.columns.map((c) => c.width)).toEqual([9, 60]);
    const tight = layoutTable({ columns: withUrl, rows: data, width: 40 });
    expect(tight.columns.map((c) => c.width)).toEqual([9, 29]);
    expect(tight.dropped).toEqual([2]);
    // Without a minWidth, a cell wider than half the line (and than real ids) is cut rather than
    // dropped with the rest.
    const noMin = layoutTable({ columns: withUrl.map((c) => ({ ...c, minWidth: undefined })), rows: data, width: 40 });
    expect(noMin.columns.map((c) => [c.index, c.width])).toEqual([[0, 9], [1, 40 - 9 - 14 - 4], [2, 14]]);
    // An id wider than half the line is cut like any text, and the less important columns stay;
    // narrower, or as long as a prefixed UUID, it stays whole and they give way.
    const idFirst = [{ header: 'STATUS', priority: 0 }, { header: 'ID', priority: 1, shrink: 'never' as const }, { header: 'TEXT', priority: 2 }];
    const hostile = layoutTable({ columns: idFirst, rows: [['published', 'x'.repeat(300), 'hello there']], width: 60 });
    expect(hostile.dropped).toEqual([]);
    expect(hostile.columns.map((c) => c.width)).toEqual([9, 60 - 9 - 11 - 4, 11]);
    const whole = layoutTable({ columns: idFirst, rows: [['published', 'x'.repeat(20), 'hello there, and more'.repeat(2)]], width: 50 });
    expect(whole.columns.map((c) => [c.index, c.width])).toEqual([[0, 9], [1, 20], [2, 50 - 9 - 20 - 4]]);
    const uuid = 'result_' + '550e8400-e29b-41d4-a716-446655440000';
    const narrow = layoutTable({ columns: idFirst, rows: [['published', uuid, 'hello there, and more']], width: 60 });
    expect(narrow.columns.map((c) => [c.index, c.width])).toEqual([[0, 9], [1, uuid.length], [2, 60 - 9 - uuid.length - 4]]);
    const single = layoutTable({ columns: [withUrl[2]!], rows: [['x'.repeat(50)]], width: 30 });
    expect(single.columns.map((c) => c.width)).toEqual([30]);
  });
});

describe('optional columns', () => {
  // ✓ id platform when url: at 80 columns the URL fits whole only once the optional "when" goes.
  const url = 'https://bsky.app/profile/socialpub-demo.bsky.social/post/3l4gaqqk0tsqy';
  const columns = [
    { header: '', priority: 0 },
    { header: 'id', priority: 1 },
    { header: 'platform', priority: 2 },
    { header: 'when', priority: 4, optional: true },
    { header: 'url', priority: 3, minWidth: 20 },
  ];
  const rows = [['✓', 'res_1hyXH73I4quI', 'bluesky', '2 hours ago', url]];

  it('are dropped whole before a column that matters is cut', () => {
    const wide = layoutTable({ columns, rows, width: 120 });
    expect(wide.dropped).toEqual([]);
    const narrow = layoutTable({ columns, rows, width: 1 + 16 + 8 + url.length + 2 * 3 });
    expect(narrow.dropped).toEqual([3]);
    expect(narrow.columns.find((c) => c.index === 4)!.width).toBe(url.length);
  });

  it('without the flag the same column is cut instead', () => {
    const plain = columns.map((c) => ({ ...c, optional: false }));
    const narrow = layoutTable({ columns: plain, rows, width: 1 + 16 + 8 + url.length + 2 * 3 });
    expect(narrow.dropped).toEqual([]);
    expect(narrow.columns.find((c) => c.index === 4)!.width).toBeLessThan(url.length);
  });
});

describe('a column with no room folds its mark into another', () => {
  interface Acct { handle: string; status: string; isDefault: boolean | null }
  const cols: Column<Acct>[] = [
    { header: 'handle', value: (r) => r.handle, priority: 0, shrink: 'never' },
    { header: 'status', value: (r) => r.status, priority: 1 },
    { header: 'default', value: (r) => String(r.isDefault), pretty: (r) => (r.isDefault ? '✓' : ''), priority: 2, fold: { into: 'handle', mark: (r) => (r.isDefault ? '✓' : ''), legend: '✓ default' } },
  ];
  const table = async (rows: Acct[], width: number, columns = cols) => {
    const out = captureStream(true, width);
    const w = tableWriter(out, columns, plainColors, width);
    for (const r of rows) await w.write(r);
    await w.end();
    return out.text().trimEnd().split('\n');
  };
  const pages = [
    { handle: '@brand-page', status: 'connected', isDefault: true },
    { handle: '@careers-page', status: 'connected', isDefault: false },
  ];

  it('shows the mark after the host cell, with the legend in its header, only where the column was dropped', async () => {
    expect(await table(pages, 29)).toEqual(['HANDLE (✓ DEFAULT)  STATUS', '@brand-page ✓       connected', '@careers-page       connected']);
    expect((await table(pages, 80))[0]).toBe('HANDLE         STATUS     DEFAULT');
    expect((await table(pages, 80))[1]).toBe('@brand-page    connected  ✓');
  });

  it('folds nothing when no row has a mark, or when the host is not shown', async () => {
    const none = pages.map((p) => ({ ...p, isDefault: null }));
    expect((await table(none, 29))[0]).toBe('HANDLE         STATUS');
    expect(await table(pages, 14, cols.slice(1))).toEqual(['STATUS', 'connected', 'connected']);
  });
});

describe('a service text whose control characters are shown as \\uXXXX', () => {
  it('is cut before such an escape or after it, never inside it ("\\u00…" names no character)', async () => {
    // What a title holding ESC [31m looks like once made visible, in a 60-column table.
    const title = 'Launch day\\u001b[31mRED\\u001b[0m is here for everyone';
    const cols: Column<{ id: string; title: string }>[] = [
      { header: 'id', value: (r) => r.id, shrink: 'never' },
      { header: 'title', value: (r) => r.title, priority: 1 },
    ];
    for (const width of [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33]) {
      const out = captureStream(true, width);
      const w = tableWriter(out, cols, plainColors, width);
      await w.write({ id: 'post_1', title });
      await w.end();
      const cell = out.text().split('\n')[1]!.slice('post_1  '.length);
      expect(cell.endsWith('…'), `${width}: ${cell}`).toBe(true);
      // Every backslash-u left in the cell is a whole escape.
      expect(cell.replace(/\\u[0-9a-f]{4}/g, ''), `${width}: ${cell}`).not.toContain('\\u');
    }
  });
});
