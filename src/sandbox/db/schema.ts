// The tables of a sandbox database. Positions (`idx`, `row`) are the numbers inside the ids
// the sandbox hands out: fixtures take the first ones and are not stored (they are generated
// again from the entropy); rows here start after them. Times are epoch milliseconds.
// results.nth: the row's place among its workspace's stored results on the same platform (0,
// 1, …): rows are only appended, in position order, so it is the count of that platform's
// earlier rows, and a filtered page deep in the table is found by index lookups (results.ts). Look
// inside with the sqlite3 shell (README, "Inside the sandbox's database").
import type { DatabaseSync } from 'node:sqlite';
import { PLATFORMS } from '../../wire/platforms.js';

/** PRAGMA application_id of a sandbox database ("SPSB"): tells it from any other SQLite file. */
export const APPLICATION_ID = 0x53505342;
/**
 * PRAGMA user_version: the layout below (2: results.nth, the platform index ends with it; 3: social
 * accounts, and the account of each result; 4: posts.extras and media.deleted, for the SyncPostly
 * dialect; 5: results.duplicate_of and the index of each account's published rows by time).
 */
export const SCHEMA_VERSION = 5;

/**
 * posts.extras: what a SyncPostly body carries that our post does not (account_configurations,
 * processing_enabled, the caption and media it was sent with), as JSON; media.deleted: a deleted upload keeps its position (so its id is
 * never handed out again) but is found no more.
 */
const DIALECT_COLUMNS = { posts: 'extras TEXT', media: 'deleted INTEGER NOT NULL DEFAULT 0' } as const;

/**
 * The account each result was published to (`idx` in accounts; the platform's default account
 * for rows written before schema 3), and why it failed when the account did (a later reconnect does
 * not undo that failure).
 */
const RESULT_ACCOUNT_COLUMNS = ['account INTEGER NOT NULL DEFAULT 0', "account_failure TEXT CHECK (account_failure IN ('TOKEN_EXPIRED', 'ACCOUNT_DISCONNECTED'))"];
/**
 * A duplicate (DUPLICATE_CONTENT): the row of the earlier result, on the same account, whose text
 * this one repeated; and the index that finds an account's published rows of the last hours.
 */
const RESULT_DUPLICATE_COLUMN = 'duplicate_of INTEGER';
const RESULTS_PUBLISHED_BY_ACCOUNT = 'CREATE INDEX results_published_by_account ON results (workspace, account, at) WHERE success = 1';
/** The social_account_id filter: rows tied to an account (no_account = 0), newest first per account. */
const RESULTS_BY_ACCOUNT = 'CREATE INDEX results_by_account ON results (workspace, account, row) WHERE no_account = 0';
/**
 * The social accounts, seeded per workspace at its first start. `fixtures_until`: fixture rows
 * (the past) are published with the account only before that time (a seeded expired account).
 */
const ACCOUNTS = `CREATE TABLE accounts (
  workspace INTEGER NOT NULL, idx INTEGER NOT NULL, platform TEXT NOT NULL, username TEXT NOT NULL,
  display_name TEXT, status TEXT NOT NULL CHECK (status IN ('connected', 'expired', 'disconnected')),
  is_default INTEGER NOT NULL, token_expires_at INTEGER, connected_at INTEGER NOT NULL, fixtures_until INTEGER,
  PRIMARY KEY (workspace, idx)
) WITHOUT ROWID;
CREATE INDEX accounts_by_platform ON accounts (workspace, platform, idx)`;

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
  ${DIALECT_COLUMNS.posts},
  PRIMARY KEY (workspace, idx)
) WITHOUT ROWID;
CREATE INDEX posts_by_status ON posts (workspace, status, idx);
CREATE TABLE results (
  workspace INTEGER NOT NULL, row INTEGER NOT NULL, post INTEGER NOT NULL, platform TEXT NOT NULL,
  success INTEGER NOT NULL, no_account INTEGER NOT NULL, broke_rule INTEGER NOT NULL, at INTEGER NOT NULL,
  nth INTEGER NOT NULL, ${RESULT_ACCOUNT_COLUMNS.join(', ')}, ${RESULT_DUPLICATE_COLUMN},
  PRIMARY KEY (workspace, row)
) WITHOUT ROWID;
CREATE INDEX results_by_platform ON results (workspace, platform, row, nth);
CREATE INDEX results_by_post ON results (workspace, post, row);
${RESULTS_BY_ACCOUNT};
${RESULTS_PUBLISHED_BY_ACCOUNT};
CREATE TABLE media (
  workspace INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL, created_at INTEGER NOT NULL,
  sha256 TEXT, kept_bytes INTEGER, probe TEXT, ${DIALECT_COLUMNS.media},
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
${ACCOUNTS};
`;

/**
 * Brings a database of an earlier layout up to this one, in one transaction. What is missing is
 * read from the results table (a schema 2 file came either with `nth` or with the accounts):
 * `nth` is counted from the rows, which are only appended; an accounts table never written to
 * is replaced, and the results went to each platform's one account, which is account `idx` = the
 * platform's position (the default the first start after this seeds keeps that id).
 */
export function migrateSchema(db: DatabaseSync, from: number): void {
  if (from !== 1 && from !== 2 && from !== 3 && from !== 4) throw new Error(`no migration from schema ${from}`);
  const columns = new Set(db.prepare('PRAGMA table_info(results)').all().map((c) => String(c.name)));
  const steps: string[] = [];
  if (!columns.has('nth')) {
    steps.push(`ALTER TABLE results ADD COLUMN nth INTEGER NOT NULL DEFAULT 0;
UPDATE results SET nth = (SELECT count(*) FROM results AS r WHERE r.workspace = results.workspace AND r.platform = results.platform AND r.row < results.row);
DROP INDEX IF EXISTS results_by_platform;
CREATE INDEX results_by_platform ON results (workspace, platform, row, nth);`);
  }
  if (!columns.has('account')) {
    const platformIndex = PLATFORMS.map((p, i) => `WHEN '${p}' THEN ${i}`).join(' ');
    steps.push(`DROP TABLE IF EXISTS accounts;
${ACCOUNTS};
${RESULT_ACCOUNT_COLUMNS.map((c) => `ALTER TABLE results ADD COLUMN ${c};`).join('\n')}
UPDATE results SET account = CASE platform ${platformIndex} ELSE 0 END;
${RESULTS_BY_ACCOUNT};`);
  }
  // Rows published before: none was refused as a duplicate.
  if (!columns.has('duplicate_of')) steps.push(`ALTER TABLE results ADD COLUMN ${RESULT_DUPLICATE_COLUMN};\n${RESULTS_PUBLISHED_BY_ACCOUNT};`);
  for (const [table, column] of Object.entries(DIALECT_COLUMNS)) {
    const has = db.prepare(`PRAGMA table_info(${table})`).all().some((c) => String(c.name) === column.split(' ')[0]);
    if (!has) steps.push(`ALTER TABLE ${table} ADD COLUMN ${column};`);
  }
  db.exec('BEGIN');
  try {
    db.exec(`${steps.join('\n')}
PRAGMA user_version = ${SCHEMA_VERSION};`);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

/** Creates the tables in an empty database (one transaction: all of them or none). */
export function createSchema(db: DatabaseSync): void {
  db.exec(`BEGIN; ${TABLES} PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
}
