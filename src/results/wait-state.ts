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
  const noun = byExpect ? 'results' : 'platforms';
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
 * The pause that keeps polling within the read budget: spread what remains of the window over
 * the time until it resets (remaining 0 → wait for the reset).
 */
export function rateLimitSpacingMs(info: RateInfo | undefined): number {
  if (!info || info.remaining === undefined || info.resetSeconds === undefined) return 0;
  const resetMs = Math.max(0, info.resetSeconds) * 1000;
  if (info.remaining <= 0) return resetMs;
  return Math.ceil(resetMs / info.remaining);
}

/** Next sleep: backoff, stretched to respect the rate limit, never past the deadline. */
export function nextPollDelayMs(attempt: number, info: RateInfo | undefined, msLeft: number): number {
  return Math.max(0, Math.min(msLeft, Math.max(backoffMs(attempt), rateLimitSpacingMs(info))));
}
