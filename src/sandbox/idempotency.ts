// Idempotency keys of one workspace (the Idempotency-Key header): the first response to a key is kept
// for 24 hours (in the database) and replayed for the same request; the same key with another request is
// refused; a key whose first request is still being processed answers 409.
import { createHash } from 'node:crypto';
import { findIdempotency, saveIdempotency } from './db/records.js';
import type { Store } from './db/store.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface StoredResponse {
  status: number;
  body: string;
}

export type Admission =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in-flight' }
  | { kind: 'mismatch' };

/** Same method, path and JSON value (key order and spacing aside) → same fingerprint. */
export function fingerprint(method: string, path: string, body: Buffer): string {
  let canonical: string;
  try {
    canonical = JSON.stringify(sortKeys(JSON.parse(body.toString('utf8'))));
  } catch {
    canonical = body.toString('base64');
  }
  return createHash('sha256').update(`${method} ${path}\n`).update(canonical).digest('base64url');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/**
 * One workspace's keys: those whose first request is being processed (in memory: a restart
 * ends every request), and the kept responses (in the database, written in the same
 * transaction as the change they answer).
 */
export class IdempotencyKeys {
  private readonly inFlight = new Map<string, { fingerprint: string; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly workspace: number,
    readonly ttlMs = IDEMPOTENCY_TTL_MS,
  ) {}

  begin(key: string, print: string, now: number): Admission {
    if (this.inFlight.has(key)) return { kind: 'in-flight' };
    const kept = findIdempotency(this.store, this.workspace, key, now - this.ttlMs);
    if (!kept) {
      this.inFlight.set(key, { fingerprint: print, at: now });
      return { kind: 'new' };
    }
    if (kept.fingerprint !== print) return { kind: 'mismatch' };
    return { kind: 'replay', response: { status: kept.status, body: kept.body } };
  }

  /** Keeps the response of a request that changed state (inside its transaction). */
  complete(key: string, response: StoredResponse): void {
    const entry = this.inFlight.get(key);
    if (!entry) return;
    saveIdempotency(this.store, this.workspace, { key, fingerprint: entry.fingerprint, at: entry.at, ...response }, entry.at - this.ttlMs);
    this.inFlight.delete(key);
  }

  /** Forgets a key whose request failed without changing anything, so it may be retried. */
  release(key: string): void {
    this.inFlight.delete(key);
  }
}
