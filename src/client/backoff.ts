// When to retry and how long to wait: full-jitter exponential backoff (a uniformly random delay
// between 0 and min(cap, base·2^n)), so that many clients failing together do not retry together.

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 20_000;

/** Delay before retry number `retry` (1 = the first retry). */
export function backoffDelay(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/** 408, 409 (same idempotency key still in flight), 429 and 5xx may succeed later; other 4xx never. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
