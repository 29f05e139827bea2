// Idempotency keys derived from what is being sent, so that a re-run (after a crash, a kill, a
// lost journal) presents the same key and the service replays instead of creating a second post.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A key from its parts: "sp-" and 40 hex digits (well inside any sensible header limit). */
export function deriveKey(...parts: string[]): string {
  return `sp-${sha256Hex(parts.join('\u0000')).slice(0, 40)}`;
}

/** The key of a media slot that belongs to a post key: replays give the same upload URL. */
export function mediaKey(postKey: string, index: number, name: string, sizeBytes: number): string {
  return deriveKey('media', postKey, String(index), name, String(sizeBytes));
}
