// Walks the results list (newest first) from an offset, page by page, through a time window:
// stops at the first page wholly older than `since` (every later page is older still), when the
// visitor has enough, or after a scan budget so a call stays short. Reports where it stopped, so
// a cursor can continue exactly there. A slow service ends the walk by time too: no page is
// started after SCAN_BUDGET_MS, so the call answers with what it found and a cursor, well inside
// its deadline, instead of running into it and losing everything read. Rows repeated by a
// shifting list are counted once, and a list that keeps repeating itself or growing stops with
// an error (PagingGuard).
import { PagingGuard, RecentIds } from '../client/paginate.js';
import { PATHS } from '../wire/protocol.js';
import type { ApiClient } from '../client/types.js';
import { eventTime, parseWindow, type TimeWindow } from '../results/since.js';
import { TimeInputError } from '../posts/when.js';
import { InvalidInputError } from '../wire/invalid-input.js';
import type { PostResult } from '../wire/schemas.js';

export interface ResultQuery {
  postId?: string[];
  platform?: string[];
}

/** How long a walk keeps starting new pages (the call's deadline is 48 s; one slow page may follow). */
export const SCAN_BUDGET_MS = 25_000;

export interface WalkOptions {
  offset: number;
  window: TimeWindow;
  pageSize: number;
  /** Rows read before the walk pauses (the caller returns a cursor). */
  maxScan: number;
  /** The clock: no page is started SCAN_BUDGET_MS or more after the walk began. */
  now(): number;
  /** Called for each row inside the window; return true to stop right after it. */
  visit(row: PostResult): boolean;
}

export interface WalkEnd {
  /** Where to continue, or undefined when the list (or the window) is exhausted. */
  nextOffset: number | undefined;
  scanned: number;
  total: number | undefined;
}

export async function walkResults(client: ApiClient, query: ResultQuery, options: WalkOptions): Promise<WalkEnd> {
  const { since, until } = options.window;
  let offset = options.offset;
  let scanned = 0;
  let total: number | undefined;
  let guard: PagingGuard | undefined;
  const stopAt = options.now() + SCAN_BUDGET_MS;
  const seen = new RecentIds(3 * options.pageSize);
  for (;;) {
    const page = (await client.results.list({ ...query, offset, limit: options.pageSize })).data;
    total = page.meta.total;
    const fresh = new Set(page.data.filter((row) => !seen.has(row.id)));
    for (const row of fresh) seen.add(row.id);
    if (guard) guard.check(fresh.size, page.data.length === 0 || offset + page.data.length >= total, offset, total);
    else guard = new PagingGuard(PATHS.postResults, total - offset, options.pageSize);
    let older = 0;
    for (const [i, row] of page.data.entries()) {
      if (!fresh.has(row)) continue;
      scanned++;
      if (since !== undefined || until !== undefined) {
        const t = eventTime(row, since !== undefined ? 'since' : 'until');
        if (since !== undefined && t < since) {
          older++;
          continue;
        }
        if (until !== undefined && t >= until) continue;
      }
      if (options.visit(row)) {
        const next = offset + i + 1;
        return { nextOffset: next < total ? next : undefined, scanned, total };
      }
    }
    offset += page.data.length;
    const windowEnded = page.data.length > 0 && older === page.data.length;
    if (windowEnded || page.data.length === 0 || offset >= total) return { nextOffset: undefined, scanned, total };
    if (scanned >= options.maxScan || options.now() >= stopAt) return { nextOffset: offset, scanned, total };
  }
}

/** since/until as tool arguments: the same forms as --since/--until, errors naming the argument. */
export function windowFromArgs(since: string | undefined, until: string | undefined, now: number, zone: string): TimeWindow {
  try {
    return parseWindow({ ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}), now, zone });
  } catch (e) {
    if (!(e instanceof TimeInputError)) throw e;
    const rename = (s: string) => s.replace(/--since/g, 'since').replace(/--until/g, 'until').replace(/--tz/g, 'time_zone');
    throw new InvalidInputError([{ field: rename(e.field), message: rename(e.message), ...(e.hint ? { fix: rename(e.hint) } : {}) }]);
  }
}
