// Media declared through the API: one row each; once uploaded, the sha256 of the bytes kept
// (blobs.ts) and what their headers tell (format, size, duration), read once at upload.
import type { MediaInfo } from '../../wire/media-probe.js';
import type { Store } from './store.js';

export interface MediaRecord {
  index: number;
  name: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: number;
  /** Set once uploaded: the bytes kept (all, or the first ones of a large file). */
  sha256?: string;
  keptBytes?: number;
  info?: MediaInfo;
}

interface Row {
  idx: number;
  name: string;
  mime_type: string;
  size_bytes: number;
  created_at: number;
  sha256: string | null;
  kept_bytes: number | null;
  probe: string | null;
}

const COLUMNS = 'idx, name, mime_type, size_bytes, created_at, sha256, kept_bytes, probe';

/** An upload of this workspace, not deleted. */
export function readMedia(store: Store, workspace: number, index: number): MediaRecord | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM media WHERE workspace = ? AND idx = ? AND deleted = 0`).get(workspace, index) as Row | undefined;
  return r && fromRow(r);
}

function fromRow(r: Row): MediaRecord {
  return {
    index: r.idx,
    name: r.name,
    mimeType: r.mime_type,
    sizeBytes: r.size_bytes,
    createdAt: r.created_at,
    ...(r.sha256 !== null ? { sha256: r.sha256, keptBytes: r.kept_bytes ?? 0 } : {}),
    ...(r.probe !== null ? { info: JSON.parse(r.probe) as MediaInfo } : {}),
  };
}

export function writeMedia(store: Store, workspace: number, m: MediaRecord): void {
  store.run(
    `INSERT OR REPLACE INTO media (workspace, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    workspace,
    m.index,
    m.name,
    m.mimeType,
    m.sizeBytes,
    m.createdAt,
    m.sha256 ?? null,
    m.keptBytes ?? null,
    m.info ? JSON.stringify(m.info) : null,
  );
}

/** Deleted: found no more; the row stays, so the position (and the id) is never handed out again. */
export function deleteMedia(store: Store, workspace: number, index: number): void {
  store.run('UPDATE media SET deleted = 1 WHERE workspace = ? AND idx = ?', workspace, index);
}

/** Newest-first page of the workspace's uploads (not deleted). */
export function mediaPage(store: Store, workspace: number, offset: number, limit: number): { total: number; items: MediaRecord[] } {
  const total = Number((store.sql('SELECT count(*) AS n FROM media WHERE workspace = ? AND deleted = 0').get(workspace) as { n: number }).n);
  const rows = offset >= total ? [] : (store.sql(`SELECT ${COLUMNS} FROM media WHERE workspace = ? AND deleted = 0 ORDER BY idx DESC LIMIT ? OFFSET ?`).all(workspace, limit, offset) as unknown as Row[]);
  return { total, items: rows.map(fromRow) };
}

export function mediaCount(store: Store, workspace: number): number {
  const r = store.sql('SELECT max(idx) AS last FROM media WHERE workspace = ?').get(workspace) as { last: number | null };
  return r.last === null ? 0 : r.last + 1;
}
