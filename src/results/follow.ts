// `results list --follow`: new results as they arrive, by polling the newest page (no webhook,
// so it works from a laptop). Constant memory: a bounded window of recently seen ids, and at most
// a few pages per poll. The pause between polls spreads the rate limit's remaining requests over
// the time left in its window, between a floor and a ceiling.
import { PagingGuard } from '../client/paginate.js';
import type { RateLimitInfo } from '../client/types.js';
import { PATHS } from '../wire/protocol.js';
import type { PostResult } from '../wire/schemas.js';

export const FOLLOW_FLOOR_MS = 2_000;
export const FOLLOW_CEILING_MS = 30_000;
/** Ids remembered; far more than a page, so a row that moves down a page is still known. */
export const SEEN_WINDOW = 5_000;
/** Pages read in one poll when every row is new (a burst since the last poll). */
export const CATCH_UP_PAGES = 5;

export interface FollowPage {
  rows: readonly PostResult[];
  rateLimit: RateLimitInfo | undefined;
  /** The list's total as this page gave it; lets a long first poll stop a list that never ends. */
  total?: number;
}

export interface FollowOptions {
  /** One page of the list, newest first. */
  page(offset: number, limit: number): Promise<FollowPage>;
  sleep(ms: number): Promise<void>;
  pageSize: number;
  /** The rows to print (filters the service lacks); every row still counts as seen. */
  keep?: (row: PostResult) => boolean;
  /** Rows of the first poll to print (the newest ones, read over as many pages as they take); the rest only mark what is already there. */
  initial?: number;
  /** Told when a burst was larger than a poll can read (some rows were skipped). */
  onGap?: (read: number) => void;
  /** Told the pause before each poll after the first. */
  onPause?: (ms: number) => void;
  /** Polls may spend the read limit's last tenth (--spend-budget, --max-requests); otherwise they wait for the reset. */
  spendReserve?: boolean;
}

/**
 * The pause before the next poll: the remaining budget spread over the reset window, clamped. The
 * last tenth of the limit is the rest of the workspace's (unless `spendReserve`): reaching it, the
 * poll waits for the reset.
 */
export function pollInterval(rate: RateLimitInfo | undefined, floor = FOLLOW_FLOOR_MS, ceiling = FOLLOW_CEILING_MS, spendReserve = false): number {
  if (!rate || rate.resetSeconds === undefined || rate.remaining === undefined) return floor;
  const resetMs = Math.max(0, rate.resetSeconds * 1000);
  const usable = rate.remaining - (spendReserve || rate.limit === undefined ? 0 : Math.ceil(rate.limit / 10));
  // Nothing left: wait for the window to reset, whatever the ceiling (a poll now would be refused).
  if (usable <= 0) return Math.max(floor, resetMs);
  return Math.min(ceiling, Math.max(floor, Math.ceil(resetMs / usable)));
}

/** A set of the last `capacity` ids added (insertion order; the oldest is forgotten first). */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = SEEN_WINDOW) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
  get size(): number {
    return this.ids.size;
  }
}

/** Each poll's new rows, oldest first (so the stream reads in time order); ends only when aborted. */
export async function* followResults(options: FollowOptions): AsyncGenerator<PostResult[]> {
  const seen = new RecentIds();
  const start = await firstPoll(options, seen);
  if (start.rows.length) yield start.rows;
  let rate = start.rate;
  for (;;) {
    const pause = pollInterval(rate, FOLLOW_FLOOR_MS, FOLLOW_CEILING_MS, options.spendReserve);
    options.onPause?.(pause);
    await options.sleep(pause);
    const fresh: PostResult[] = [];
    rate = undefined;
    for (let n = 0; n < CATCH_UP_PAGES; n++) {
      const page = await options.page(n * options.pageSize, options.pageSize);
      rate = page.rateLimit ?? rate;
      let known = false;
      for (const row of page.rows) {
        if (seen.has(row.id)) known = true;
        else fresh.push(row);
      }
      if (known || page.rows.length < options.pageSize) break;
      if (n === CATCH_UP_PAGES - 1) options.onGap?.(fresh.length);
    }
    // Dedupe within the poll too: offsets shift while new rows arrive between two pages.
    const out: PostResult[] = [];
    for (let i = fresh.length - 1; i >= 0; i--) {
      const row = fresh[i]!;
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      if (!options.keep || options.keep(row)) out.push(row);
    }
    if (out.length) yield out;
  }
}

/**
 * The first poll: marks the newest rows as seen and keeps the `initial` newest that pass `keep`,
 * reading further pages until it has them or the list ends. Holds only those rows and the ids of
 * the newest SEEN_WINDOW rows, however far it reads.
 */
async function firstPoll(options: FollowOptions, seen: RecentIds): Promise<{ rows: PostResult[]; rate: RateLimitInfo | undefined }> {
  const wanted = options.initial ?? 0;
  const ids: string[] = [];
  const read = new RecentIds(3 * options.pageSize);
  const rows: PostResult[] = [];
  let rate: RateLimitInfo | undefined;
  let guard: PagingGuard | undefined;
  for (let offset = 0; ; offset += options.pageSize) {
    const page = await options.page(offset, options.pageSize);
    rate = page.rateLimit ?? rate;
    let fresh = 0;
    // Rows repeat across pages when new ones arrive between two reads: each is counted once.
    for (const row of page.rows) {
      if (read.has(row.id)) continue;
      read.add(row.id);
      fresh++;
      if (ids.length < SEEN_WINDOW) ids.push(row.id);
      if (rows.length < wanted && (!options.keep || options.keep(row))) rows.push(row);
    }
    const last = page.rows.length < options.pageSize;
    if (rows.length >= wanted || last) break;
    if (page.total !== undefined) {
      if (guard) guard.check(fresh, last, offset, page.total);
      else guard = new PagingGuard(PATHS.postResults, page.total, options.pageSize);
    }
  }
  // Oldest first, so the newest ids are the last the window forgets.
  for (let i = ids.length - 1; i >= 0; i--) seen.add(ids[i]!);
  return { rows: rows.reverse(), rate };
}
