// The small tables: idempotency records (the response kept for a key), rate-window hits, the
// pending webhook queue, the sandbox's own settings (meta) and its workspaces.
import type { Entropy } from '../random.js';
import type { PendingDelivery } from '../webhooks.js';
import type { Store } from './store.js';

export interface IdempotencyRecord {
  key: string;
  fingerprint: string;
  at: number;
  status: number;
  body: string;
}

export function findIdempotency(store: Store, workspace: number, key: string, since: number): IdempotencyRecord | undefined {
  return store.sql('SELECT key, fingerprint, at, status, body FROM idempotency WHERE workspace = ? AND key = ? AND at > ?').get(workspace, key, since) as IdempotencyRecord | undefined;
}

export function saveIdempotency(store: Store, workspace: number, r: IdempotencyRecord, expireBefore: number): void {
  store.run('DELETE FROM idempotency WHERE at <= ?', expireBefore);
  store.run('INSERT OR REPLACE INTO idempotency (workspace, key, fingerprint, at, status, body) VALUES (?, ?, ?, ?, ?, ?)', workspace, r.key, r.fingerprint, r.at, r.status, r.body);
}

/** Times of the requests counted in a window, oldest first. */
export function loadHits(store: Store, workspace: number, kind: 'read' | 'write'): number[] {
  return (store.sql('SELECT at FROM rate_hits WHERE workspace = ? AND kind = ? ORDER BY at').all(workspace, kind) as { at: number }[]).map((r) => r.at);
}

export function queueDelivery(store: Store, d: PendingDelivery): void {
  store.transaction(() => store.run('INSERT OR REPLACE INTO webhook_queue (id, body, attempt, due_at) VALUES (?, ?, ?, ?)', d.id, d.body, d.attempt, d.dueAt));
}

export function removeDelivery(store: Store, id: string): void {
  store.transaction(() => store.run('DELETE FROM webhook_queue WHERE id = ?', id));
}

export function pendingDeliveries(store: Store): PendingDelivery[] {
  return (store.sql('SELECT id, body, attempt, due_at FROM webhook_queue ORDER BY due_at').all() as { id: string; body: string; attempt: number; due_at: number }[]).map((r) => ({
    id: r.id,
    body: r.body,
    attempt: r.attempt,
    dueAt: r.due_at,
  }));
}

export interface Settings {
  entropy: Entropy;
  webhookSecret: string;
  /** Starts on this database so far (request ids differ per start). */
  boot: number;
}

export function readSettings(store: Store): Settings | undefined {
  const rows = store.sql('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  const entropy = meta.get('entropy');
  const secret = meta.get('webhook_secret');
  if (entropy === undefined || secret === undefined) return undefined;
  return { entropy: JSON.parse(entropy) as Entropy, webhookSecret: secret, boot: Number(meta.get('boot') ?? 0) };
}

export function writeSettings(store: Store, s: Settings): void {
  const put = (key: string, value: string) => store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, value);
  put('entropy', JSON.stringify(s.entropy));
  put('webhook_secret', s.webhookSecret);
  put('boot', String(s.boot));
}

export interface WorkspaceRow {
  tag: number;
  name: string;
  apiKey: string;
  addon: boolean;
  fixtures?: { count: number; anchorMs: number; failureRate: number };
}

export function readWorkspaces(store: Store): WorkspaceRow[] {
  const rows = store.sql('SELECT tag, name, api_key, addon, fixture_count, fixture_anchor, fixture_failure_rate FROM workspaces ORDER BY tag').all() as {
    tag: number;
    name: string;
    api_key: string;
    addon: number;
    fixture_count: number;
    fixture_anchor: number | null;
    fixture_failure_rate: number | null;
  }[];
  return rows.map((r) => ({
    tag: r.tag,
    name: r.name,
    apiKey: r.api_key,
    addon: r.addon === 1,
    ...(r.fixture_count > 0 ? { fixtures: { count: r.fixture_count, anchorMs: r.fixture_anchor ?? 0, failureRate: r.fixture_failure_rate ?? 0 } } : {}),
  }));
}

export function writeWorkspace(store: Store, w: WorkspaceRow): void {
  store.run(
    'INSERT OR REPLACE INTO workspaces (tag, name, api_key, addon, fixture_count, fixture_anchor, fixture_failure_rate) VALUES (?, ?, ?, ?, ?, ?, ?)',
    w.tag,
    w.name,
    w.apiKey,
    w.addon ? 1 : 0,
    w.fixtures?.count ?? 0,
    w.fixtures?.anchorMs ?? null,
    w.fixtures?.failureRate ?? null,
  );
}
