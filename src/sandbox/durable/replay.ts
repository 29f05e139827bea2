// Rebuilding the state at start: the snapshot first, then the log's changes in order. Each
// change names its position, and a position that does not follow on is refused: the log and
// the snapshot must tell one story, or the sandbox would hand out ids twice.
import type { SavedMedia, SavedState } from '../persistence.js';
import { StateFileError } from '../persistence.js';
import type { LivePost } from '../store/post-store.js';
import type { PendingDelivery } from '../webhooks.js';
import type { Workspace } from '../workspace.js';
import type { Change } from './changes.js';

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
  return new StateFileError(`the sandbox data is inconsistent: ${what} does not follow on (next is ${next}); move FILE.wal away to start from the last snapshot`);
}
