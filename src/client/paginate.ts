// Offset/limit pagination as an async iterator. After the first page, meta.total
// is known and up to `concurrency` pages are fetched at once; rows are still yielded strictly in
// the service's order.
//
// Rows can move while we page: the lists are newest first, so a row arriving at the head shifts
// every later row one offset further. Each page reports the total it saw; the growth since the
// first page tells how far rows have shifted, so each page is placed in the coordinates of the
// first page ("frame"). A page that comes back overlapping what was already yielded has its
// repeats dropped by id; a page that lands past a hole (an earlier page was answered after more
// rows arrived) triggers a fetch of the hole before it is yielded. Paging ends on a page that is
// short or reaches its own total.
// A server that pages forever (the same rows on every page, a total that keeps growing) is
// stopped with an error by PagingGuard.
import { PAGE } from '../wire/protocol.js';
import type { ListPage } from '../wire/schemas.js';
import { ResponseShapeError } from './errors.js';
import type { Requester } from './request.js';
import type { IterateOptions, QueryValue, SchemaRef } from './types.js';

export const DEFAULT_CONCURRENCY = 4;
/** Below this many requests left in the window, pages are fetched one at a time. */
const LOW_REMAINING = 10;
/** Hole fills in a row before giving up on a page (rows keep moving faster than we read). */
const MAX_HOLE_FILLS = 10;
/** Pages in a row that bring no new row before paging gives up. */
const MAX_STALE_PAGES = 3;
/** Rows beyond twice the first total that paging tolerates, in pages (rows arriving while we read). */
const GROWTH_SLACK_PAGES = 10;

interface Page<T> {
  offset: number;
  asked: number;
  rows: T[];
  total: number;
  servedLimit: number;
}

export type Paginate = <T extends { id: string }>(
  path: string,
  query: Record<string, QueryValue>,
  schema: SchemaRef<ListPage<T>>,
  options?: IterateOptions,
) => AsyncIterable<T>;

/** The same pages as Paginate, one array per page (de-duplicated rows, in order): for callers that decide per page when to stop. */
export type PaginatePages = <T extends { id: string }>(
  path: string,
  query: Record<string, QueryValue>,
  schema: SchemaRef<ListPage<T>>,
  options?: IterateOptions,
) => AsyncIterable<T[]>;

export function createPaginate(request: Requester): Paginate {
  return (path, query, schema, options = {}) => ({
    [Symbol.asyncIterator]: () => rows(pages(request, path, query, schema, options)),
  });
}

export function createPaginatePages(request: Requester): PaginatePages {
  return (path, query, schema, options = {}) => ({
    [Symbol.asyncIterator]: () => pages(request, path, query, schema, options),
  });
}

async function* rows<T>(source: AsyncIterable<T[]>): AsyncGenerator<T, void, undefined> {
  for await (const page of source) yield* page;
}

// Breaking out of either iterator returns this generator, whose finally aborts the pages in flight.
async function* pages<T extends { id: string }>(
  request: Requester,
  path: string,
  query: Record<string, QueryValue>,
  schema: SchemaRef<ListPage<T>>,
  options: IterateOptions,
): AsyncGenerator<T[], void, undefined> {
  let pageSize = clamp(Math.floor(options.pageSize ?? PAGE.maxLimit), 1, PAGE.maxLimit);
  const maxConcurrency = clamp(Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY), 1, 16);
  const base: Record<string, QueryValue> = { ...query };
  delete base.offset;
  delete base.limit;
  // Stopping early (break, an error) aborts the pages still in flight.
  const stop = new AbortController();
  let latestTotal: number | undefined;
  let remaining: number | undefined;
  const inflight: Promise<Page<T>>[] = [];

  const fetchPage = (offset: number): Promise<Page<T>> => {
    const asked = pageSize;
    return request({ method: 'GET', path, query: { ...base, offset, limit: asked }, schema, signal: stop.signal, deadline: options.deadline }).then((res) => {
      latestTotal = res.data.meta.total;
      remaining = res.rateLimit?.remaining;
      return { offset, asked, rows: res.data.data, total: res.data.meta.total, servedLimit: res.data.meta.limit };
    });
  };

  try {
    const start = Math.max(0, Math.floor(options.offset ?? 0));
    const first = await fetchPage(start);
    const t0 = first.total;
    await options.onTotal?.(t0);
    // A service that serves smaller pages than asked: page by what it serves.
    if (first.servedLimit >= 1 && first.servedLimit < pageSize) pageSize = first.servedLimit;
    const seen = new RecentIds(pageSize * (maxConcurrency + 2));
    let cursor = start;
    const shift = () => (latestTotal ?? t0) - t0;
    const frameStart = (p: Page<T>) => p.offset - (p.total - t0);
    const isLast = (p: Page<T>) => p.rows.length < Math.min(p.asked, p.servedLimit >= 1 ? p.servedLimit : p.asked) || p.offset + p.rows.length >= p.total;

    const guard = new PagingGuard(path, t0 - start, pageSize, first.rows.length);

    function* emit(p: Page<T>): Generator<T[], void, undefined> {
      options.onPage?.({ offset: p.offset, count: p.rows.length, total: p.total });
      const fresh: T[] = [];
      for (const row of p.rows) {
        const id = (row as { id?: unknown }).id;
        if (typeof id === 'string') {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        fresh.push(row);
      }
      if (p !== first) guard.check(fresh.length, isLast(p), p.offset, p.total, p.rows.length);
      cursor = Math.max(cursor, frameStart(p) + p.rows.length);
      yield fresh;
    }

    yield* emit(first);
    if (isLast(first)) return;
    let nextSlot = start + pageSize;
    for (;;) {
      const width = remaining !== undefined && remaining < Math.max(LOW_REMAINING, 2 * maxConcurrency) ? 1 : maxConcurrency;
      // Planned pages cover the list as the first page saw it; past that, one page at a time.
      while (inflight.length < width && nextSlot < t0) {
        const p = fetchPage(nextSlot + shift());
        p.catch(() => {});
        inflight.push(p);
        nextSlot += pageSize;
      }
      const page = inflight.length > 0 ? await inflight.shift()! : await fetchPage(cursor + shift());
      for (let fills = 0; frameStart(page) > cursor && fills < MAX_HOLE_FILLS; fills++) {
        const hole = await fetchPage(cursor + shift());
        yield* emit(hole);
        if (isLast(hole)) return;
      }
      yield* emit(page);
      if (isLast(page)) return;
    }
  } finally {
    stop.abort();
    for (const p of inflight) p.catch(() => {});
  }
}

/**
 * Stops a walk over pages that makes no progress: pages in a row that bring no row not already
 * read (one such page happens when rows arrive while an earlier page is out), or more rows read
 * than twice what the first page said there were, plus some pages of slack for rows arriving.
 */
export class PagingGuard {
  private read = 0;
  private stale = 0;
  private readonly readAtMost: number;

  constructor(
    private readonly path: string,
    private readonly expected: number,
    pageSize: number,
    /** Rows of the first page (read before any check). */
    private readonly firstRows = 0,
  ) {
    this.readAtMost = 2 * Math.max(0, expected) + GROWTH_SLACK_PAGES * pageSize;
  }

  /** After each page but the first: `fresh` rows it brought that were not read before, of `served`. */
  check(fresh: number, last: boolean, offset: number, total: number, served = fresh): void {
    this.stale = fresh === 0 && !last ? this.stale + 1 : 0;
    if (this.stale >= MAX_STALE_PAGES) throw this.error(`${this.stale} pages in a row (up to offset ${offset}) held only rows already read`);
    // A last page of repeats, short of the rows the first page counted (rows are only ever added):
    // the pages repeated themselves up to the end, and stopping quietly would pass a part for the whole.
    if (last && fresh === 0 && served > 0 && this.firstRows + this.read < this.expected) {
      throw this.error(`the last page (offset ${offset}) held only rows already read, ${this.firstRows + this.read} of the ${this.expected} the first page counted`);
    }
    this.read += fresh;
    if (this.read > this.readAtMost) throw this.error(`${this.read} rows read where the first page said there were ${this.expected}, and its total keeps growing (now ${total})`);
  }

  private error(why: string): ResponseShapeError {
    return new ResponseShapeError(`stopped paging ${this.path}: ${why}; the service's paging is not making progress`, { code: 'PAGING_NO_PROGRESS' });
  }
}

function clamp(n: number, lo: number, hi: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
}

// The ids of the most recently yielded rows, to drop repeats when rows shift between pages.
// Bounded: a couple of pages' worth, not every id ever seen, so `--all` stays in constant memory.
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    while (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}
