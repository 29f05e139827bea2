// Pagination against a small stateful list service behind the client's Fetcher: order, completeness, repeat
// keys, de-duplication when rows shift, the hole a concurrent page can leave, the concurrency
// bound and its back-off on a low RateLimit-Remaining, short pages, and an early break.
import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../src/client/errors.js';
import { RecentIds } from '../../src/client/paginate.js';
import { createClient } from '../../src/client/index.js';
import type { Fetcher } from '../../src/client/transport.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { BASE, fakeService, json, KEY, sampleResult } from './client-kit.js';

let fetcher: Fetcher;

const PATH = '/api/v1/post-results';

interface ListService {
  rows: PostResult[];
  /** Every request, in the order it was answered. */
  requests: URLSearchParams[];
  readonly maxOpen: number;
}

function pageOf(path: string): URLSearchParams {
  return new URLSearchParams(path.slice(path.indexOf('?') + 1));
}

/**
 * A list service over `rows` (newest first). `slow` gives a delay per offset; `afterServe` runs
 * after a page is computed (to insert rows at the head mid-paging).
 */
function listService(
  count: number,
  options: { slow?: Record<number, number>; everyDelay?: number; headers?: Record<string, string>; afterServe?: (offset: number, svc: ListService) => void } = {},
): ListService {
  const service = fakeService();
  fetcher = service.fetch;
  const svc: ListService = {
    rows: Array.from({ length: count }, (_, i) => sampleResult(`r${i}`) as PostResult),
    requests: [],
    get maxOpen() {
      return service.maxOpen;
    },
  };
  // Called once per request, when it is answered.
  const serve = (p: string) => {
    const q = pageOf(p);
    svc.requests.push(q);
    const offset = Number(q.get('offset'));
    const limit = Number(q.get('limit'));
    const body = { data: svc.rows.slice(offset, offset + limit), meta: { offset, limit, total: svc.rows.length } };
    options.afterServe?.(offset, svc);
    return body;
  };
  const headers = { ...json, ...options.headers };
  const answer = (r: { path: string }) => ({ status: 200, body: serve(r.path), headers });
  for (const [offset, delayMs] of Object.entries(options.slow ?? {})) {
    service.route({ method: 'GET', path: (p) => p.startsWith(`${PATH}?`) && pageOf(p).get('offset') === offset, delayMs }, answer);
  }
  service.route({ method: 'GET', path: (p) => p.startsWith(PATH), always: true, delayMs: options.everyDelay }, answer);
  return svc;
}

function client(signal?: AbortSignal) {
  return createClient({ baseUrl: BASE, apiKey: KEY, fetcher, sleep: async () => {}, ...(signal ? { signal } : {}) });
}

async function ids(iterable: AsyncIterable<{ id: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const row of iterable) out.push(row.id);
  return out;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);

describe('pagination', () => {
  it('yields every row once, in the service order, with pages fetched concurrently', async () => {
    const svc = listService(9, { slow: { 2: 30 } }); // page 2 answers last, but is yielded second
    const pages: number[] = [];
    const totals: number[] = [];
    const got = await ids(client().results.iterate({}, { pageSize: 2, concurrency: 3, onTotal: (t) => totals.push(t), onPage: (p) => pages.push(p.offset) }));
    expect(got).toEqual(range(9));
    expect(totals).toEqual([9]);
    expect(pages).toEqual([0, 2, 4, 6, 8]);
    expect(svc.requests.map((q) => q.get('offset'))).toEqual(['0', '4', '6', '2', '8']); // answered order: 8 is sent once 2 is consumed
    expect(svc.maxOpen).toBeGreaterThanOrEqual(2); // page 2 was still out while others came back
    expect(svc.requests.every((q) => q.get('limit') === '2')).toBe(true);
  });

  it('sends array filters as repeated keys', async () => {
    const svc = listService(1);
    await ids(client().results.iterate({ postId: ['post_a', 'post_b'], platform: ['bluesky', 'threads'] }, { pageSize: 50 }));
    const q = svc.requests[0]!;
    expect(q.getAll('post_id')).toEqual(['post_a', 'post_b']);
    expect(q.getAll('platform')).toEqual(['bluesky', 'threads']);
    expect(q.toString()).toMatch(/post_id=post_a&post_id=post_b/);
  });

  it('drops rows repeated because new rows arrived at the head while paging', async () => {
    const svc = listService(8, {
      afterServe: (offset, s) => {
        if (offset === 0) s.rows.unshift(sampleResult('new1'), sampleResult('new2'));
      },
    });
    const got = await ids(client().results.iterate({}, { pageSize: 3, concurrency: 1 }));
    expect(got).toEqual(range(8));
    // The second page (offset 3) came back shifted by two and repeated r1, r2.
    expect(svc.requests.map((q) => q.get('offset'))[1]).toBe('3');
  });

  it('fills the hole left when an earlier page is answered after rows arrived', async () => {
    // Pages 4, 6, 8 answer at once from the old list; then two rows arrive; page 2 answers late
    // from the new list (repeating r0, r1), so r2 and r3 would be skipped without a refetch.
    const svc = listService(10, {
      slow: { 2: 40 },
      afterServe: (offset, s) => {
        if (offset === 8 && s.rows.length === 10) s.rows.unshift(sampleResult('new1'), sampleResult('new2'));
      },
    });
    const got = await ids(client().results.iterate({}, { pageSize: 2, concurrency: 4 }));
    expect(got).toEqual(range(10));
    expect(svc.requests.length).toBeGreaterThan(5); // the refetch of the hole
  });

  it('keeps at most `concurrency` pages in flight', async () => {
    const svc = listService(20, { everyDelay: 15 });
    const got = await ids(client().results.iterate({}, { pageSize: 2, concurrency: 3 }));
    expect(got).toEqual(range(20));
    expect(svc.maxOpen).toBe(3);
  });

  it('fetches one page at a time when RateLimit-Remaining runs low', async () => {
    const svc = listService(12, { everyDelay: 5, headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '3', 'ratelimit-reset': '60' } });
    const got = await ids(client().results.iterate({}, { pageSize: 2, concurrency: 4 }));
    expect(got).toEqual(range(12));
    expect(svc.maxOpen).toBe(1);
  });

  it('stops on a short page, and without an extra request when the last page is full', async () => {
    let svc = listService(4);
    expect(await ids(client().results.iterate({}, { pageSize: 2, concurrency: 1 }))).toEqual(range(4));
    expect(svc.requests).toHaveLength(2);

    // A total that overstates: the short page ends it, not the total.
    svc = listService(3);
    const m = svc; // total reported 3; page of 2 then a short page of 1
    expect(await ids(client().results.iterate({}, { pageSize: 2, concurrency: 1 }))).toEqual(range(3));
    expect(m.requests).toHaveLength(2);
  });

  it('starts at an offset and an empty list yields nothing', async () => {
    listService(5);
    expect(await ids(client().results.iterate({}, { offset: 3, pageSize: 10 }))).toEqual(['r3', 'r4']);
    const svc = listService(0);
    const totals: number[] = [];
    expect(await ids(client().results.iterate({ platform: ['pinterest'] }, { onTotal: (t) => totals.push(t) }))).toEqual([]);
    expect(totals).toEqual([0]);
    expect(svc.requests).toHaveLength(1);
  });

  it('a consumer that breaks early cancels the pages in flight, without unhandled rejections', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Pages 4..10 are held for an hour: the loop can only end because the break cancels them
      // instead of waiting for them (no wall-clock bound needed to tell).
      const HELD = 3_600_000;
      const svc = listService(40, { slow: { 4: HELD, 6: HELD, 8: HELD, 10: HELD } });
      const got: string[] = [];
      for await (const row of client().results.iterate({}, { pageSize: 2, concurrency: 4 })) {
        got.push(row.id);
        if (got.length === 3) break; // first row of the second page; pages 4..10 are in flight
      }
      expect(got).toEqual(['r0', 'r1', 'r2']);
      const sent = svc.requests.length;
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(svc.requests.length).toBe(sent); // nothing new after the break
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('Ctrl-C during paging ends it with AbortedError', async () => {
    listService(40);
    const controller = new AbortController();
    const got: string[] = [];
    const run = (async () => {
      for await (const row of client(controller.signal).results.iterate({}, { pageSize: 2, concurrency: 2 })) {
        got.push(row.id);
        if (got.length === 3) controller.abort(); // Ctrl-C in the middle of the second page
      }
    })();
    await expect(run).rejects.toBeInstanceOf(AbortedError);
    expect(got.length).toBeLessThan(40);
  });

  it('stops with an error when page after page repeats rows already read', async () => {
    // Whatever the offset, the same two rows, and the total always says there are more.
    const rows = [sampleResult('r0'), sampleResult('r1')];
    const service = fakeService();
    fetcher = service.fetch;
    let served = 0;
    service.always('GET', (p) => p.startsWith(PATH), () => ({ status: 200, headers: json, body: { data: rows, meta: { offset: 0, limit: 2, total: 1000 + served++ } } }));
    const got: string[] = [];
    const run = (async () => {
      for await (const row of client().results.iterate({}, { pageSize: 2, concurrency: 1 })) got.push(row.id);
    })();
    await expect(run).rejects.toThrow(/stopped paging \/api\/v1\/post-results: 3 pages in a row \(up to offset \d+\) held only rows already read/);
    expect(got).toEqual(['r0', 'r1']);
    expect(served).toBe(4);
  });

  it('stops with an error when the pages repeat the first one up to the end (too few for three stale pages in a row)', async () => {
    // Seven rows by the total, three pages of two after the first: every one the first page again.
    const rows = [sampleResult('r0'), sampleResult('r1')];
    const service = fakeService();
    fetcher = service.fetch;
    service.always('GET', (p) => p.startsWith(PATH), (r) => ({ status: 200, headers: json, body: { data: rows, meta: { offset: Number(pageOf(r.path).get('offset')), limit: 2, total: 7 } } }));
    const got: string[] = [];
    const run = (async () => {
      for await (const row of client().results.iterate({}, { pageSize: 2, concurrency: 1 })) got.push(row.id);
    })();
    await expect(run).rejects.toThrow(/stopped paging \/api\/v1\/post-results: the last page \(offset 6\) held only rows already read, 2 of the 7 the first page counted/);
    expect(got).toEqual(['r0', 'r1']);
  });

  it('stops with an error when new rows keep coming far past the first total', async () => {
    // Every page brings rows never seen, and the total grows with each one: a list without end.
    const service = fakeService();
    fetcher = service.fetch;
    let served = 0;
    service.always('GET', (p) => p.startsWith(PATH), (r) => {
      const offset = Number(pageOf(r.path).get('offset'));
      served++;
      return { status: 200, headers: json, body: { data: [sampleResult(`g${offset}`), sampleResult(`g${offset + 1}`)], meta: { offset, limit: 2, total: 10 + served * 2 } } };
    });
    let count = 0;
    const run = (async () => {
      for await (const _row of client().results.iterate({}, { pageSize: 2, concurrency: 1 })) count++;
    })();
    await expect(run).rejects.toThrow(/stopped paging \/api\/v1\/post-results: \d+ rows read where the first page said there were 12, and its total keeps growing/);
    // The first page, then twice the first total plus ten pages of slack; the page past it is not yielded.
    expect(count).toBe(2 + 2 * 12 + 10 * 2);
  });

  it('remembers a bounded number of ids', () => {
    const recent = new RecentIds(3);
    for (const id of ['a', 'b', 'c', 'd']) recent.add(id);
    expect(recent.size).toBe(3);
    expect(recent.has('a')).toBe(false);
    expect(recent.has('d')).toBe(true);
  });
});
