// The RateLimit-* headers every response of the service carries (CONTRACT section 2).
import { HEADER } from '../wire/protocol.js';
import type { RateLimitInfo } from './types.js';

function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function parseRateLimit(headers: Record<string, string>): RateLimitInfo | undefined {
  const limit = num(headers[HEADER.rateLimitLimit]);
  const remaining = num(headers[HEADER.rateLimitRemaining]);
  const resetSeconds = num(headers[HEADER.rateLimitReset]);
  if (limit === undefined && remaining === undefined && resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}
