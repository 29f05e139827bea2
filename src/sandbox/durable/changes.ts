// The changes the write-ahead log records, one kind per piece of state that must survive a
// crash. Each is an upsert or an append with its position, so replaying a log onto the
// snapshot it goes with rebuilds exactly the state that was acknowledged.
import type { IdempotencySnapshot } from '../idempotency.js';
import type { SavedMedia } from '../persistence.js';
import type { LivePost } from '../store/post-store.js';
import type { PendingDelivery } from '../webhooks.js';

export type Change =
  /** A post created, scheduled, moved, edited, deleted (a tombstone) or published (by its index: the id counter). */
  | { t: 'post'; w: number; post: LivePost }
  /** Result rows appended from position `from` on. */
  | { t: 'rows'; w: number; from: number; rows: [number, number, number, number][] }
  /** A media item declared or uploaded (by its index). */
  | { t: 'media'; w: number; media: SavedMedia }
  /** The response kept for an idempotency key. */
  | { t: 'idem'; w: number; record: IdempotencySnapshot }
  /** A request counted in a workspace's rolling window. */
  | { t: 'hit'; w: number; k: 'read' | 'write'; at: number }
  /** A webhook delivery waiting for (another) attempt. */
  | { t: 'webhook'; d: PendingDelivery }
  /** A webhook delivery answered 2xx or given up: nothing more to send. */
  | { t: 'delivered'; id: string };
