// The workspace's rate limits are shared (a support query and every CI job of the workspace draw
// on the same hourly reads), so one run keeps to a budget: at most --max-requests requests, reads
// that leave the read limit's last tenth to the others, and a large read (every page of a big
// list) that would use more than half of what is left is not started. The pipeline asks `admit`
// before every attempt and tells `observe` the RateLimit-* headers of every answer.
import { ApiError } from './errors.js';
import { formatDuration } from './retry-timing.js';
import type { RateLimitInfo } from './types.js';

/** Share of a rate limit that reads leave to the rest of the workspace unless told. */
export const RESERVE_SHARE = 0.1;
/** A large read may use at most this share of what the read limit has left. */
export const LARGE_READ_SHARE = 0.5;

/** A request this run's budget does not allow: exit 5, with how to cut the cost or allow it. */
export class BudgetError extends ApiError {
  /** When the read limit's window resets (epoch ms), when the service said. */
  readonly retryAt: number | undefined;
  readonly cuts: readonly string[];
  constructor(message: string, init: { code: string; retryAt?: number | undefined; cuts?: readonly string[] }) {
    super('budget', message, { code: init.code });
    this.retryAt = init.retryAt;
    this.cuts = init.cuts ?? [];
  }
}

export interface BudgetOptions {
  /** --max-requests: the most attempts this run may send. */
  maxRequests?: number | undefined;
  /** --spend-budget (or --max-requests): the last tenth and large reads are allowed. */
  spendReserve?: boolean | undefined;
  now: () => number;
}

export interface RequestBudget {
  /** Throws a BudgetError when the next attempt of this method is not allowed. */
  admit(method: string): void;
  observe(method: string, info: RateLimitInfo): void;
  /** Attempts sent so far. */
  readonly sent: number;
  /** What the last read's answer said of the read limit, and when. */
  lastRead(): (RateLimitInfo & { at: number }) | undefined;
  /** Reads the read limit has left for this run (its last tenth kept unless told); undefined: unknown or unlimited. */
  readsUsable(): number | undefined;
  /**
   * Before the rest of a large read (every page of a list, after its first): refuses, naming the
   * cost and the ways to cut it, when `pages` more requests would use more than half of what
   * the read limit has left (or pass --max-requests).
   */
  checkLargeRead(pages: number, what: string, cuts: readonly string[]): void;
}

export function createRequestBudget(options: BudgetOptions): RequestBudget {
  let sent = 0;
  let read: (RateLimitInfo & { at: number }) | undefined;
  const spend = Boolean(options.spendReserve) || options.maxRequests !== undefined;
  const resetAt = (r: RateLimitInfo & { at: number }) => (r.resetSeconds === undefined ? undefined : r.at + r.resetSeconds * 1000);
  /** Requests of the read limit still usable now (undefined: the service said nothing, or its window has reset since). */
  const usable = (): { left: number; kept: number; limit: number; retryAt: number | undefined } | undefined => {
    if (!read || read.remaining === undefined || read.limit === undefined) return undefined;
    const retryAt = resetAt(read);
    if (retryAt !== undefined && options.now() >= retryAt) return undefined;
    const kept = spend ? 0 : Math.ceil(read.limit * RESERVE_SHARE);
    return { left: read.remaining - kept, kept, limit: read.limit, retryAt };
  };
  const resetText = (at: number | undefined) => (at === undefined ? '' : `, reset in ${formatDuration(Math.max(0, at - options.now()))}`);
  return {
    get sent() {
      return sent;
    },
    lastRead: () => read,
    readsUsable: () => (spend || options.maxRequests !== undefined ? undefined : usable()?.left),
    admit(method) {
      if (options.maxRequests !== undefined && sent >= options.maxRequests) {
        throw new BudgetError(`stopped at --max-requests ${options.maxRequests}: this run has sent ${sent} requests`, { code: 'MAX_REQUESTS', cuts: ['raise --max-requests, or narrow what the command reads (--since, --limit, filters)'] });
      }
      if (method === 'GET' && !spend) {
        const u = usable();
        if (u && u.left <= 0 && read) {
          throw new BudgetError(`the read limit is down to its last tenth (${read.remaining} of ${u.limit} left${resetText(u.retryAt)}): left to the rest of the workspace`, {
            code: 'READ_RESERVE',
            retryAt: u.retryAt,
            cuts: ['--spend-budget (or --max-requests N) lets this run use it'],
          });
        }
      }
      sent++;
    },
    observe(method, info) {
      if (method === 'GET') read = { ...info, at: options.now() };
    },
    checkLargeRead(pages, what, cuts) {
      if (pages <= 0) return;
      if (options.maxRequests !== undefined) {
        if (sent + pages > options.maxRequests) {
          throw new BudgetError(`${what} needs about ${pages} more requests; --max-requests ${options.maxRequests} allows ${Math.max(0, options.maxRequests - sent)} more`, { code: 'MAX_REQUESTS', cuts });
        }
        return;
      }
      if (spend) return;
      const u = usable();
      if (!u || !read) return;
      const allowed = Math.floor(Math.max(0, u.left) * LARGE_READ_SHARE);
      if (pages <= allowed) return;
      throw new BudgetError(
        `${what} needs about ${pages} more requests, more than half of the ${Math.max(0, u.left)} the read limit has left for this workspace (${read.remaining} of ${u.limit}${resetText(u.retryAt)}, the last tenth kept for others); not started`,
        { code: 'READ_BUDGET', retryAt: u.retryAt, cuts: [...cuts, '--spend-budget to read it all anyway, or --max-requests N to cap the cost'] },
      );
    },
  };
}
