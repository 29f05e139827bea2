// One trace line per attempt for --debug: method, URL, outcome, duration, attempt number and the
// rate-limit headers. The line passes through redact() before it leaves the client.
import type { RateLimitInfo } from './types.js';
import { redact } from './redact.js';

export interface AttemptTrace {
  method: string;
  url: string;
  attempt: number;
  maxAttempts: number;
  durationMs: number;
  status?: number | undefined;
  failure?: string | undefined;
  requestId?: string | undefined;
  rateLimit?: RateLimitInfo | undefined;
  idempotencyKey?: string | undefined;
  replayed?: boolean | undefined;
  authorization?: string | undefined;
}

export function traceLine(t: AttemptTrace, secrets: ReadonlyArray<string | undefined>): string {
  const parts = [`${t.method} ${t.url} → ${t.status ?? t.failure ?? '?'}`, `${Math.round(t.durationMs)}ms`, `attempt ${t.attempt}/${t.maxAttempts}`];
  if (t.rateLimit) {
    const rl = t.rateLimit;
    parts.push(`ratelimit ${rl.remaining ?? '?'}/${rl.limit ?? '?'} reset ${rl.resetSeconds ?? '?'}s`);
  }
  if (t.requestId) parts.push(`request-id ${t.requestId}`);
  if (t.idempotencyKey) parts.push(`idempotency-key ${t.idempotencyKey}${t.replayed ? ' (replayed)' : ''}`);
  if (t.authorization) parts.push(`authorization ${t.authorization}`);
  return redact(parts.join(' · '), secrets);
}
