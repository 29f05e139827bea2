// How long the client waits, and why: the default timeout, retry count and wait budget (the CLI
// quotes these in its help), full-jitter backoff, the service's Retry-After and RateLimit-*
// headers, and how a duration reads in a message.
import { HEADER } from '../wire/protocol.js';
import type { RateLimitInfo } from './types.js';

export const CLIENT_DEFAULTS = {
  /** Per attempt, body included. */
  timeoutMs: 30_000,
  maxRetries: 3,
  /** Longest Retry-After slept through; beyond it a RateLimitError says when to come back. */
  maxWaitMs: 60_000,
} as const;

/** The furthest instant a Date can hold (±8.64e15 ms): a server may ask for a wait of a billion years. */
export const LAST_DATE_MS = 8.64e15;

// Full-jitter exponential backoff (a uniformly random delay between 0 and min(cap, base·2^n)),
// so that many clients failing together do not retry together. Base 1 s and cap 20 s as in the
// AWS SDKs' "standard" retry mode (delay = random(0..1) · 2^n s, at most 20 s).
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 20_000;

/**
 * A write (anything but GET) keeps retrying a transient failure (5xx, connection error, timeout,
 * a malformed or cut answer) for this long after its first attempt, at most `maxRetries` times:
 * its Idempotency-Key makes every retry safe, and a ten-second blip must not turn a release red.
 * An explicit --max-retries replaces it with that count.
 */
export const WRITE_RETRY = { budgetMs: 30_000, maxRetries: 10 } as const;

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

/**
 * The delay in ms a Retry-After asks for (≥ 0), in both forms RFC 9110 allows: delay-seconds
 * ("120") and an HTTP-date ("Wed, 21 Oct 2026 07:28:00 GMT"). Undefined when absent or malformed:
 * the caller then falls back to backoff rather than retrying at once.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  // Date.parse alone is too lenient ("7" parses as a year): require a month name and a time.
  if (!/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(text) || !/\b\d{1,2}:\d{2}:\d{2}\b/.test(text)) {
    return undefined;
  }
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The RateLimit-* headers every response of the service carries; undefined when none is there. */
export function parseRateLimit(headers: Record<string, string>): RateLimitInfo | undefined {
  const limit = headerNumber(headers[HEADER.rateLimitLimit]);
  const remaining = headerNumber(headers[HEADER.rateLimitRemaining]);
  const resetSeconds = headerNumber(headers[HEADER.rateLimitReset]);
  if (limit === undefined && remaining === undefined && resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Short human durations for messages, help and the trace ("750ms", "12s", "3 min", "1 h 5 min",
 * "3 days 4 h"). A day or more is told in days: a Retry-After of 100 days is not "2400 h".
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  // A wait no one would sit through (a Retry-After of 1e20 s) is not worth a 16-digit count.
  if (d > 366) return 'more than a year';
  const days = d === 1 ? '1 day' : `${d.toLocaleString('en-US')} days`;
  return h % 24 ? `${days} ${h % 24} h` : days;
}
