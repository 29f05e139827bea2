// The tables of a sandbox database. Positions (`idx`, `row`) are the numbers inside the ids
// the sandbox hands out: fixtures take the first ones and are not stored (they are generated
// again from the entropy); rows here start after them. Times are epoch milliseconds.
// results.nth: the row's place among its workspace's stored results on the same platform (0,
// 1, …): rows are only appended, in position order, so it is the count of that platform's
// earlier rows, and a filtered page deep in the table is found by index lookups (results.ts). Look
// inside with the sqlite3 shell (README, "Inside the sandbox's database").
import type { DatabaseSync } from 'node:sqlite';

/** PRAGMA application_id of a sandbox database ("SPSB"): tells it from any other SQLite file. */
export const APPLICATION_ID = 0x53505342;
/** PRAGMA user_version: the layout below (2: results.nth, the platform index ends with it). */
export const SCHEMA_VERSION = 2;

const TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE workspaces (
  tag INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, api_key TEXT NOT NULL, addon INTEGER NOT NULL,
  fixture_count INTEGER NOT NULL DEFAULT 0, fixture_anchor INTEGER, fixture_failure_rate REAL
);
CREATE TABLE posts (
  workspace INTEGER NOT NULL, idx INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'scheduled', 'published', 'failed', 'deleted')),
  payloads TEXT NOT NULL, title TEXT, scheduled_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (workspace, idx)
) WITHOUT ROWID;
CREATE INDEX posts_by_status ON posts (workspace, status, idx);
CREATE TABLE results (
  workspace INTEGER NOT NULL, row INTEGER NOT NULL, post INTEGER NOT NULL, platform TEXT NOT NULL,
  success INTEGER NOT NULL, no_account INTEGER NOT NULL, broke_rule INTEGER NOT NULL, at INTEGER NOT NULL,
  nth INTEGER NOT NULL,
  PRIMARY KEY (workspace, row)
) WITHOUT ROWID;
CREATE INDEX results_by_platform ON results (workspace, platform, row, nth);
CREATE INDEX results_by_post ON results (workspace, post, row);
CREATE TABLE media (
  workspace INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL, created_at INTEGER NOT NULL,
  sha256 TEXT, kept_bytes INTEGER, probe TEXT,
  PRIMARY KEY (workspace, idx)
) WITHOUT ROWID;
CREATE TABLE idempotency (
  workspace INTEGER NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, at INTEGER NOT NULL,
  status INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (workspace, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_by_age ON idempotency (at);
CREATE TABLE rate_hits (workspace INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('read', 'write')), at INTEGER NOT NULL);
CREATE INDEX rate_hits_by_time ON rate_hits (workspace, kind, at);
CREATE TABLE webhook_queue (id TEXT PRIMARY KEY, body TEXT NOT NULL, attempt INTEGER NOT NULL, due_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE accounts (
  id TEXT PRIMARY KEY, workspace INTEGER NOT NULL, platform TEXT NOT NULL, username TEXT NOT NULL,
  display_name TEXT, status TEXT NOT NULL DEFAULT 'active', is_default INTEGER NOT NULL DEFAULT 0,
  token_expires_at INTEGER, connected_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX accounts_by_workspace ON accounts (workspace, platform);
`;

/** Creates the tables in an empty database (one transaction: all of them or none). */
export function createSchema(db: DatabaseSync): void {
  db.exec(`BEGIN; ${TABLES} PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
}
