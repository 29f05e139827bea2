// List cursors: where the next page starts in the service's list, plus what the first call
// resolved (a `since` of "48h" becomes an instant), so continuing never moves the window. A
// cursor is bound to its filters: used with others, it is refused instead of skipping rows.
import { sha256Hex, stableStringify } from '../posts/keys.js';
import { InvalidInputError } from '../wire/invalid-input.js';

export interface CursorState {
  /** Offset in the service's list where the next page starts. */
  offset: number;
  since?: number;
  until?: number;
}

interface Encoded extends CursorState {
  /** Hash of the filters the cursor belongs to. */
  q: string;
}

export const filterHash = (filters: unknown) => sha256Hex(stableStringify(filters)).slice(0, 16);

export function encodeCursor(state: CursorState, filters: unknown): string {
  const value: Encoded = { ...state, q: filterHash(filters) };
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor(cursor: string, filters: unknown, field = 'cursor'): CursorState {
  let value: Partial<Encoded> | undefined;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Encoded>;
  } catch {
    value = undefined;
  }
  if (!value || typeof value.offset !== 'number' || !Number.isInteger(value.offset) || value.offset < 0 || typeof value.q !== 'string') {
    throw new InvalidInputError([{ field, message: `${field}: not a cursor this server handed out`, fix: 'pass next_cursor from the previous answer unchanged, or leave cursor out to start from the newest' }]);
  }
  if (value.q !== filterHash(filters)) {
    throw new InvalidInputError([{ field, message: `${field}: this cursor belongs to a call with other filters`, fix: 'repeat the filters of the call that returned it, or leave cursor out to start over' }]);
  }
  return { offset: value.offset, ...(typeof value.since === 'number' ? { since: value.since } : {}), ...(typeof value.until === 'number' ? { until: value.until } : {}) };
}
