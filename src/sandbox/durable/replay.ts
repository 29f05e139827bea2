// The changes the write-ahead log records, and rebuilding the state at start from them: the
// snapshot first, then the log's changes in order. Each change names its position, and a
// position that does not follow on is refused: the log and the snapshot must tell one story,
// or the sandbox would hand out ids twice.
import type { SandboxCore } from '../core.js';
import type { IdempotencySnapshot } from '../idempotency.js';
import type { SavedMedia, SavedState } from '../persistence.js';
import { StateFileError } from '../persistence.js';
import type { LivePost } from '../store/post-store.js';
import type { PendingDelivery } from '../webhooks.js';
import type { Workspace } from '../workspace.js';
import { DataFile, type OpenedData } from './data-file.js';

/**
 * One kind of change per piece of state that must survive a crash. Each is an upsert or an
 * append with its position, so replaying a log onto the snapshot it goes with rebuilds exactly
 * the state that was acknowledged.
 */
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


/** The state being rebuilt: the workspaces, and the deliveries still to send. */
export interface ReplayTarget {
  workspaces: readonly Workspace[];
  deliveries: Map<string, PendingDelivery>;
}

function workspace(target: ReplayTarget, tag: number): Workspace {
  const ws = target.workspaces.find((w) => w.tag === tag);
  if (!ws) throw new StateFileError(`the sandbox data names workspace ${tag}, which it does not define; pass another --data file`);
  return ws;
}

export function restoreSnapshot(target: ReplayTarget, saved: SavedState): void {
  for (const sw of saved.workspaces) {
    const ws = workspace(target, sw.tag);
    for (const p of sw.posts) upsertPost(ws, p);
    ws.restoreRows(sw.rows);
    for (const m of sw.media) upsertMedia(ws, m);
    ws.idempotency.restore(sw.idempotency);
    ws.reads.restore(sw.windows?.read ?? []);
    ws.writes.restore(sw.windows?.write ?? []);
  }
  for (const d of saved.webhooks ?? []) target.deliveries.set(d.id, d);
}

export function replay(target: ReplayTarget, changes: readonly Change[]): void {
  for (const c of changes) {
    switch (c.t) {
      case 'post':
        upsertPost(workspace(target, c.w), c.post);
        break;
      case 'rows': {
        const ws = workspace(target, c.w);
        if (ws.rows.length !== c.from) throw outOfOrder(`result row ${c.from}`, ws.rows.length);
        ws.restoreRows(c.rows);
        break;
      }
      case 'media':
        upsertMedia(workspace(target, c.w), c.media);
        break;
      case 'idem':
        workspace(target, c.w).idempotency.restore([c.record]);
        break;
      case 'hit': {
        const ws = workspace(target, c.w);
        (c.k === 'read' ? ws.reads : ws.writes).restore([c.at]);
        break;
      }
      case 'webhook':
        target.deliveries.set(c.d.id, c.d);
        break;
      case 'delivered':
        target.deliveries.delete(c.id);
        break;
    }
  }
}

function upsertPost(ws: Workspace, saved: LivePost): void {
  const { index, status, ...rest } = saved;
  if (index === ws.posts.count) {
    ws.addPost({ status, ...rest });
    return;
  }
  const live = ws.posts.livePost(index);
  if (!live) throw outOfOrder(`post ${index}`, ws.posts.count);
  // The record is the whole post: a field it lacks (a removed title) is gone.
  for (const key of Object.keys(live) as (keyof LivePost)[]) if (key !== 'index' && !(key in saved)) delete live[key];
  Object.assign(live, rest);
  if (saved.deleted) ws.posts.remove(live);
  else ws.posts.setStatus(live, status);
}

function upsertMedia(ws: Workspace, m: SavedMedia): void {
  if (m.index > ws.media.length) throw outOfOrder(`media ${m.index}`, ws.media.length);
  ws.media[m.index] = {
    index: m.index,
    name: m.name,
    mimeType: m.mimeType,
    sizeBytes: m.sizeBytes,
    createdAt: m.createdAt,
    bytes: m.bytes === undefined ? undefined : Buffer.from(m.bytes, 'base64'),
  };
}

function outOfOrder(what: string, next: number): StateFileError {
  return new StateFileError(
    `the sandbox data is inconsistent: ${what} does not follow on (next is ${next}); the sandbox changed nothing. Restore FILE and FILE.wal from a backup, or move FILE.wal away to start from the snapshot alone (the log's changes are then lost)`,
  );
}

/**
 * Start-up with `--data`: the state rebuilt from the snapshot and its log, compacted into a new
 * snapshot before the first request, and only then the publisher and the webhook retries set
 * going, so that everything they do is logged.
 */
export async function resumeDurable(core: SandboxCore, file: string, opened: OpenedData, compactBytes?: number): Promise<DataFile> {
  const { saved, changes } = opened;
  const deliveries = new Map<string, PendingDelivery>();
  const target = { workspaces: core.workspaces, deliveries };
  if (saved) restoreSnapshot(target, saved);
  replay(target, changes);
  // The keys, the entropy and this start's number (the request-id counter) are on disk before
  // any id is handed out.
  const first = { ...core.snapshot(0), webhooks: [...deliveries.values()] };
  const data = await DataFile.start(file, saved?.journal ?? 0, first, { snapshot: (g) => core.snapshot(g), switchJournal: (j) => core.attachJournal(j) }, compactBytes);
  for (const ws of core.workspaces) for (const post of ws.posts.livePosts()) core.publisher.track(ws, post);
  core.webhooks.resume([...deliveries.values()]);
  return data;
}
