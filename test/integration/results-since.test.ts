// The --since window over real HTTP: the client's pages against a sandbox whose fixtures are
// spread over the 30 days before its clock, checked against plain-HTTP reads of every row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { ApiClient } from '../../src/client/types.js';
import { parseWindow, selectWindow, type TimeWindow } from '../../src/results/since.js';
import { windowRows } from '../../src/results/window-pages.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { allResults, keyOf, sandboxFor, START, type Sandbox } from './results-support.js';

const FIXTURES = 3000; // one row every 14.4 minutes over 30 days: 100 rows a day

describe('selectWindow against the sandbox', () => {
  let sb: Sandbox & { clock: ManualClock };
  let client: ApiClient;
  let oracle: PostResult[];

  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: FIXTURES, seed: 5 });
    client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    oracle = await allResults(sb, keyOf(sb, 'demo'));
    expect(oracle).toHaveLength(FIXTURES);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });

  /** The window's rows and the result-list requests it took. */
  async function run(window: TimeWindow, query: { platform?: string[] } = {}, concurrency = 1) {
    const before = sb.requests.length;
    const rows: PostResult[] = [];
    for await (const r of selectWindow(client.results.pages(query, { pageSize: 100, concurrency }), window)) rows.push(r);
    const requests = sb.requests.slice(before).filter((e) => e.path === '/api/v1/post-results');
    return { rows, requests: requests.length };
  }

  const expected = (window: TimeWindow, rows = oracle) =>
    rows.filter((r) => {
      const t = Date.parse(r.created_at!);
      return (window.since === undefined || t >= window.since) && (window.until === undefined || t < window.until);
    });

  it('--since 48h: exactly the rows of the last 48 hours, reading the pages that hold them plus the first older page', async () => {
    const window = parseWindow({ since: '48h', now: START, zone: 'UTC' });
    const want = expected(window);
    expect(want.length).toBeGreaterThan(150);
    expect(want.length % 100).not.toBe(0); // the edge falls inside a page
    const { rows, requests } = await run(window);
    expect(rows.map((r) => r.id)).toEqual(want.map((r) => r.id));
    expect(requests).toBe(Math.floor(want.length / 100) + 2);
    expect(requests).toBeLessThan(FIXTURES / 100);
  });

  it('with pages in flight, stops as soon and cancels the rest: at most 4 more requests than one at a time', async () => {
    const window = parseWindow({ since: '48h', now: START, zone: 'UTC' });
    const { rows, requests } = await run(window, {}, 4);
    expect(rows.map((r) => r.id)).toEqual(expected(window).map((r) => r.id));
    expect(requests).toBeLessThanOrEqual(Math.floor(expected(window).length / 100) + 2 + 4);
  });

  it('a row exactly at --since is in, a row exactly at --until is out', async () => {
    const edgeSince = oracle[350]!;
    const edgeUntil = oracle[120]!;
    const window = parseWindow({ since: edgeSince.created_at!, until: edgeUntil.created_at!, now: START, zone: 'UTC' });
    const { rows } = await run(window);
    const ids = rows.map((r) => r.id);
    expect(ids[0]).toBe(oracle[121]!.id);
    expect(ids.at(-1)).toBe(edgeSince.id);
    expect(ids).not.toContain(edgeUntil.id);
    expect(ids).toHaveLength(230);
  });

  it('local dates in different zones select different rows, each its own midnight', async () => {
    // "2026-11-30" starts at 23:00Z on the 29th in Paris, 15:00Z on the 29th in Tokyo, 05:00Z on the 30th in New York.
    for (const [zone, midnight] of [
      ['Europe/Paris', '2026-11-29T23:00:00.000Z'],
      ['Asia/Tokyo', '2026-11-29T15:00:00.000Z'],
      ['America/New_York', '2026-11-30T05:00:00.000Z'],
    ] as const) {
      const window = parseWindow({ since: '2026-11-30', until: '2026-11-30 12:00', now: START, zone });
      expect(new Date(window.since!).toISOString()).toBe(midnight);
      const { rows } = await run(window);
      expect(rows.map((r) => r.id)).toEqual(expected(window).map((r) => r.id));
      expect(rows.length).toBeGreaterThan(40);
    }
  });

  it('a window between two rows yields nothing and still stops early', async () => {
    const newer = Date.parse(oracle[500]!.created_at!);
    const older = Date.parse(oracle[501]!.created_at!);
    expect(newer - older).toBeGreaterThan(2);
    const { rows, requests } = await run({ since: older + 1, until: newer });
    expect(rows).toEqual([]);
    expect(requests).toBe(7); // rows 0..499 in pages 1-5, row 500 on page 6, page 7 wholly older
  });

  it('works under a platform filter (the service pages the filtered list)', async () => {
    const window = parseWindow({ since: '7d', now: START, zone: 'UTC' });
    const platformRows = await allResults(sb, keyOf(sb, 'demo'), '&platform=instagram');
    const want = expected(window, platformRows);
    const { rows, requests } = await run(window, { platform: ['instagram'] });
    expect(rows.map((r) => r.id)).toEqual(want.map((r) => r.id));
    expect(requests).toBe(Math.floor(want.length / 100) + 2);
  });

  it('a window older than every row reads the whole list and yields nothing', async () => {
    const { rows, requests } = await run({ until: START - 31 * 86_400_000 });
    expect(rows).toEqual([]);
    expect(requests).toBe(FIXTURES / 100);
  });

  it('windowRows with --until seeks its start: a day four weeks back costs a few probes and its own pages', async () => {
    const window = parseWindow({ since: '29d', until: '28d', now: START, zone: 'UTC' });
    const want = expected(window);
    expect(want.length).toBeGreaterThan(80);
    const before = sb.requests.length;
    let skipped = -1;
    const rows: PostResult[] = [];
    for await (const r of windowRows(client, {}, window, { pageSize: 100, concurrency: 1, onSeek: (o) => (skipped = o) })) rows.push(r);
    const requests = sb.requests.slice(before).filter((e) => e.path === '/api/v1/post-results');
    expect(rows.map((r) => r.id)).toEqual(want.map((r) => r.id));
    expect(skipped).toBe(oracle.indexOf(want[0]!));
    const probes = requests.filter((e) => /(^|&)limit=1(&|$)/.test(e.query)).length;
    expect(probes).toBeLessThanOrEqual(Math.ceil(Math.log2(FIXTURES)) + 1);
    expect(requests.length - probes).toBeLessThanOrEqual(Math.ceil(want.length / 100) + 2);
    expect(requests.length).toBeLessThan(2800 / 100 / 1.5); // paging from the top reads 28 pages before reaching the window
  });

  it('windowRows without --until reads from the top without probing', async () => {
    const window = parseWindow({ since: '48h', now: START, zone: 'UTC' });
    const before = sb.requests.length;
    const rows: PostResult[] = [];
    for await (const r of windowRows(client, {}, window, { pageSize: 100, concurrency: 1 })) rows.push(r);
    expect(rows.map((r) => r.id)).toEqual(expected(window).map((r) => r.id));
    expect(sb.requests.slice(before).every((e) => !/(^|&)limit=1(&|$)/.test(e.query))).toBe(true);
  });
});
