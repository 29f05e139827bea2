// The last filter before anything leaves the server (every protocol message and log line): the
// client's redaction (the key, Bearer values, whsec_ secrets, key-like fields and credentials
// written into URLs), the same one every command's output goes through.
import { redact } from '../client/redact.js';

export function redactOutbound(text: string, secrets: readonly string[]): string {
  return redact(text, secrets);
}

/** A JSON value with every string redacted (keys and structure untouched). */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redactOutbound(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets);
    return out as T;
  }
  return value;
}
