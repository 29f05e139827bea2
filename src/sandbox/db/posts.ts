// Posts created through the API (fixture posts are generated, not stored): one row each, by
// workspace and position. A deleted post stays as a tombstone (status 'deleted', no content),
// so its position, and so its id, is never handed out again.
import type { SQLInputValue } from 'node:sqlite';
import type { PostStatus } from '../../wire/platforms.js';
import type { Store } from './store.js';

export interface LivePost {
  index: number;
  status: PostStatus;
  /** Payloads exactly as accepted (platform options kept). */
  payloads: Record<string, Record<string, unknown>>;
  title?: string;
  scheduledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** What a SyncPostly body carries beyond our post (account_configurations, processing_enabled, the caption and media sent), kept verbatim. */
  extras?: Record<string, unknown>;
  deleted?: true;
}

interface PostRow {
  idx: number;
  status: string;
  payloads: string;
  title: string | null;
  scheduled_at: number | null;
  created_at: number;
  updated_at: number;
  extras: string | null;
}

const COLUMNS = 'idx, status, payloads, title, scheduled_at, created_at, updated_at, extras';

function fromRow(r: PostRow): LivePost {
  const deleted = r.status === 'deleted';
  return {
    index: r.idx,
    status: deleted ? 'draft' : (r.status as PostStatus),
    payloads: JSON.parse(r.payloads) as LivePost['payloads'],
    ...(r.title !== null ? { title: r.title } : {}),
    scheduledAt: r.scheduled_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.extras !== null ? { extras: JSON.parse(r.extras) as Record<string, unknown> } : {}),
    ...(deleted ? { deleted: true as const } : {}),
  };
}

export function readPost(store: Store, workspace: number, index: number): LivePost | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM posts WHERE workspace = ? AND idx = ?`).get(workspace, index) as PostRow | undefined;
  return r && fromRow(r);
}

/** Inserts or replaces the whole post (a field it lacks, such as a removed title, is gone). */
export function writePost(store: Store, workspace: number, p: LivePost): void {
  store.run(
    `INSERT OR REPLACE INTO posts (workspace, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    workspace,
    p.index,
    p.deleted ? 'deleted' : p.status,
    JSON.stringify(p.payloads),
    p.title ?? null,
    p.scheduledAt,
    p.createdAt,
    p.updatedAt,
    p.extras ? JSON.stringify(p.extras) : null,
  );
}

/** The last position handed out, or undefined before the first post. */
export function lastPostIndex(store: Store, workspace: number): number | undefined {
  const r = store.sql('SELECT max(idx) AS last FROM posts WHERE workspace = ?').get(workspace) as { last: number | null };
  return r.last ?? undefined;
}

/** What a list of posts may be narrowed by besides the statuses (the SyncPostly dialect's filters). */
export interface PostNarrowing {
  /** Only posts with a payload for one of these platforms. */
  platforms?: readonly string[];
  /** Also the scheduled posts whose time has come by `now` (`due`) or not (`ahead`). */
  scheduled?: { due: boolean; now: number };
}

/** Newest-first positions of the posts in one of `statuses` (and what `narrow` adds or keeps). */
export function postPage(store: Store, workspace: number, statuses: readonly string[], offset: number, limit: number, narrow: PostNarrowing = {}): { total: number; items: number[] } {
  const params: SQLInputValue[] = [workspace, JSON.stringify(statuses)];
  let where = 'workspace = ? AND (status IN (SELECT value FROM json_each(?))';
  if (narrow.scheduled) {
    where += ` OR (status = 'scheduled' AND scheduled_at ${narrow.scheduled.due ? '<=' : '>'} ?)`;
    params.push(narrow.scheduled.now);
  }
  where += ')';
  if (narrow.platforms?.length) {
    where += ' AND EXISTS (SELECT 1 FROM json_each(payloads) WHERE key IN (SELECT value FROM json_each(?)))';
    params.push(JSON.stringify(narrow.platforms));
  }
  const total = Number((store.sql(`SELECT count(*) AS n FROM posts WHERE ${where}`).get(...params) as { n: number }).n);
  const items = offset >= total || limit <= 0 ? [] : (store.sql(`SELECT idx FROM posts WHERE ${where} ORDER BY idx DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as { idx: number }[]).map((r) => r.idx);
  return { total, items };
}

/**
 * Every scheduled post of a workspace (for the publisher at start). INDEXED BY: without table
 * statistics SQLite prefers the primary key here and reads every post of the workspace (0.4 s
 * for 500,000 at each start), where the status index reads the scheduled ones only.
 */
export function scheduledPosts(store: Store, workspace: number): LivePost[] {
  return (store.sql(`SELECT ${COLUMNS} FROM posts INDEXED BY posts_by_status WHERE workspace = ? AND status = 'scheduled'`).all(workspace) as unknown as PostRow[]).map(fromRow);
}

/** The newest post (not deleted) whose payloads name `needle` (a media item's public path): MediaDto.post_id. */
export function postNaming(store: Store, workspace: number, needle: string): number | undefined {
  const r = store.sql("SELECT idx FROM posts WHERE workspace = ? AND status != 'deleted' AND instr(payloads, ?) > 0 ORDER BY idx DESC LIMIT 1").get(workspace, needle) as { idx: number } | undefined;
  return r?.idx;
}
