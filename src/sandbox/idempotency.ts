// Idempotency keys of one workspace (the Idempotency-Key header): the first response to a key is kept
// for 24 hours and replayed for the same request; the same key with another request is
// refused; a key whose first request is still being processed answers 409.
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface StoredResponse {
  status: number;
  body: string;
}

interface Entry {
  fingerprint: string;
  at: number;
  response: StoredResponse | undefined;
}

export type Admission =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in-flight' }
  | { kind: 'mismatch' };

export interface IdempotencySnapshot {
  key: string;
  fingerprint: string;
  at: number;
  status: number;
  body: string;
}

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

export class IdempotencyCache {
  private entries = new Map<string, Entry>();

  constructor(readonly ttlMs = IDEMPOTENCY_TTL_MS) {}

  private prune(now: number): void {
    // Insertion order is time order: expired entries sit at the front.
    for (const [key, entry] of this.entries) {
      if (entry.at > now - this.ttlMs) break;
      if (entry.response) this.entries.delete(key);
    }
  }

  begin(key: string, print: string, now: number): Admission {
    this.prune(now);
    const entry = this.entries.get(key);
    if (!entry) {
      this.entries.set(key, { fingerprint: print, at: now, response: undefined });
      return { kind: 'new' };
    }
    if (!entry.response) return { kind: 'in-flight' };
    if (entry.fingerprint !== print) return { kind: 'mismatch' };
    return { kind: 'replay', response: entry.response };
  }

  /** Keeps the response of a request that changed state. */
  complete(key: string, response: StoredResponse): void {
    const entry = this.entries.get(key);
    if (entry) entry.response = response;
  }

  /** Forgets a key whose request failed without changing anything, so it may be retried. */
  release(key: string): void {
    const entry = this.entries.get(key);
    if (entry && !entry.response) this.entries.delete(key);
  }

  /** The kept response of a key, as saved. */
  saved(key: string): IdempotencySnapshot | undefined {
    const e = this.entries.get(key);
    return e?.response ? { key, fingerprint: e.fingerprint, at: e.at, ...e.response } : undefined;
  }

  snapshot(): IdempotencySnapshot[] {
    const out: IdempotencySnapshot[] = [];
    for (const [key, e] of this.entries) if (e.response) out.push({ key, fingerprint: e.fingerprint, at: e.at, ...e.response });
    return out;
  }

  restore(items: readonly IdempotencySnapshot[]): void {
    for (const i of items) this.entries.set(i.key, { fingerprint: i.fingerprint, at: i.at, response: { status: i.status, body: i.body } });
  }
}
