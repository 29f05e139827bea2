// What `results wait` knows after each poll: which targets reported, which are missing, which
// failed. Pure, so the rules are unit-tested without a service.
import type { PostResult } from '../wire/schemas.js';

export interface WaitState {
  /** Results of the post, de-duplicated by id, in the service's order. */
  rows: PostResult[];
  /** How many targets have reported (for "2 of 3 platforms reported"). */
  reported: number;
  /** How many targets are expected. */
  expected: number;
  /** Target platforms without a result yet (empty when unknown, e.g. rows without platform). */
  missing: string[];
  failures: PostResult[];
  done: boolean;
}

/**
 * targets: the platforms of the post's payloads. expect: --expect N, which overrides them.
 * Rows normally carry `platform`; when some do not, the count of rows stands in for it.
 */
export function assessResults(rows: readonly PostResult[], targets: readonly string[], expect?: number): WaitState {
  const seen = new Set<string>();
  const unique: PostResult[] = [];
  for (const r of rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    unique.push(r);
  }
  const platforms = new Set(unique.map((r) => r.platform).filter((p): p is string => typeof p === 'string'));
  const allTagged = unique.every((r) => typeof r.platform === 'string');
  const failures = unique.filter((r) => !r.success);
  let expected: number;
  let reported: number;
  let missing: string[];
  if (expect !== undefined) {
    expected = expect;
    reported = Math.min(unique.length, expect);
    missing = unique.length >= expect ? [] : targets.filter((t) => !platforms.has(t));
  } else if (allTagged) {
    expected = targets.length;
    missing = targets.filter((t) => !platforms.has(t));
    reported = expected - missing.length;
  } else {
    expected = targets.length;
    reported = Math.min(unique.length, expected);
    missing = unique.length >= expected ? [] : targets.filter((t) => !platforms.has(t));
  }
  return { rows: unique, reported, expected, missing, failures, done: reported >= expected && expected > 0 };
}

export function progressText(state: Pick<WaitState, 'reported' | 'expected'>, byExpect: boolean): string {
  // "1 of 1 platform", "0 of 2 platforms": the noun agrees with the total.
  const noun = (byExpect ? 'result' : 'platform') + (state.expected === 1 ? '' : 's');
  return `${state.reported} of ${state.expected} ${noun} reported`;
}

export interface RateInfo {
  limit?: number | undefined;
  remaining?: number | undefined;
  resetSeconds?: number | undefined;
}

export const POLL = { firstMs: 1_000, factor: 1.6, maxMs: 15_000 } as const;

/** Delay before poll number `attempt` (0-based, after the first immediate one). */
export function backoffMs(attempt: number): number {
  return Math.min(POLL.maxMs, Math.round(POLL.firstMs * POLL.factor ** attempt));
}

/**
 * The pause the read budget asks for. While the rate limit has room for polls at the normal
 * cadence until its window resets (or the wait ends), none: a post due in 3 s is seen 3 s later,
 * not reset ÷ remaining later. As it runs short, the polls left are spread over that time; the
 * last tenth of the limit is kept for other work in the workspace (wait for the reset) unless
 * `spendReserve`.
 */
export function rateLimitSpacingMs(info: RateInfo | undefined, attempt: number, msLeft: number, options: { spendReserve?: boolean | undefined } = {}): number {
  if (!info || info.remaining === undefined || info.resetSeconds === undefined) return 0;
  const resetMs = Math.max(0, info.resetSeconds) * 1000;
  const reserve = options.spendReserve || info.limit === undefined ? 0 : Math.ceil(info.limit / 10);
  const usable = info.remaining - reserve;
  if (usable <= 0) return resetMs;
  const windowMs = Math.min(resetMs, msLeft);
  if (pollsWithin(attempt, windowMs, usable) <= usable) return 0;
  return Math.ceil(windowMs / usable);
}

/** Next sleep: backoff, stretched only when the rate limit runs short, never past the deadline. */
export function nextPollDelayMs(attempt: number, info: RateInfo | undefined, msLeft: number, options: { spendReserve?: boolean | undefined } = {}): number {
  return Math.max(0, Math.min(msLeft, Math.max(backoffMs(attempt), rateLimitSpacingMs(info, attempt, msLeft, options))));
}

/** Polls the normal cadence makes within windowMs from poll `attempt` on; counting stops past `enough`. */
function pollsWithin(attempt: number, windowMs: number, enough: number): number {
  let polls = 0;
  for (let spent = 0, n = attempt; spent < windowMs && polls <= enough; n++) {
    spent += backoffMs(n);
    polls++;
  }
  return polls;
}
