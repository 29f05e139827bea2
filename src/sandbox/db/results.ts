// Results of posts published live (fixture results are generated, not stored): one row each,
// by workspace and position; positions follow the fixtures' and never decrease in time.
import type { Platform } from '../../wire/platforms.js';
import type { Store } from './store.js';

/** Why a publish failed because of its account (before any other failure). */
export type AccountFailure = 'TOKEN_EXPIRED' | 'ACCOUNT_DISCONNECTED';

export interface ResultRow {
  row: number;
  post: number;
  platform: Platform;
  success: boolean;
  /** The platform event could not be tied to an account. */
  noAccount: boolean;
  /** The post broke the platform's rules: the failure is that rule's. */
  brokeRule: boolean;
  at: number;
  /** The account (its position) the row was published to. */
  account: number;
  /** Why it failed when its account did (before anything else was tried). */
  accountFailure?: AccountFailure | undefined;
  /** The row of the earlier published result whose text it repeated on the same account (DUPLICATE_CONTENT). */
  duplicateOf?: number | undefined;
}

interface Row {
  row: number;
  post: number;
  platform: string;
  success: number;
  no_account: number;
  broke_rule: number;
  at: number;
  account: number;
  account_failure: string | null;
  duplicate_of: number | null;
}

const COLUMNS = 'row, post, platform, success, no_account, broke_rule, at, account, account_failure, duplicate_of';
/** The nth of a platform's last row at or before a position (one index lookup); NULL when there is none. */
const LAST_NTH = 'SELECT nth FROM results WHERE workspace = ? AND platform = ? AND row <= ? ORDER BY row DESC LIMIT 1';

const fromRow = (r: Row): ResultRow => ({
  row: r.row,
  post: r.post,
  platform: r.platform as Platform,
  success: r.success === 1,
  noAccount: r.no_account === 1,
  brokeRule: r.broke_rule === 1,
  at: r.at,
  account: r.account,
  ...(r.account_failure !== null ? { accountFailure: r.account_failure as AccountFailure } : {}),
  ...(r.duplicate_of !== null ? { duplicateOf: r.duplicate_of } : {}),
});

/** Appends a result (its row after every stored one), numbered among its platform's (schema.ts, nth). */
export function insertResult(store: Store, workspace: number, r: ResultRow): void {
  store.run(
    `INSERT INTO results (workspace, ${COLUMNS}, nth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce((${LAST_NTH}), -1) + 1)`,
    workspace,
    r.row,
    r.post,
    r.platform,
    r.success ? 1 : 0,
    r.noAccount ? 1 : 0,
    r.brokeRule ? 1 : 0,
    r.at,
    r.account,
    r.accountFailure ?? null,
    r.duplicateOf ?? null,
    workspace,
    r.platform,
    Number.MAX_SAFE_INTEGER,
  );
}

export function readResult(store: Store, workspace: number, row: number): ResultRow | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM results WHERE workspace = ? AND row = ?`).get(workspace, row) as Row | undefined;
  return r && fromRow(r);
}

/** A post's results, in time order. */
export function resultsOfPost(store: Store, workspace: number, post: number): ResultRow[] {
  return (store.sql(`SELECT ${COLUMNS} FROM results WHERE workspace = ? AND post = ? ORDER BY row`).all(workspace, post) as unknown as Row[]).map(fromRow);
}

/** An account's published rows at or after `since`, newest first (rows of one post: one each). */
export function publishedSince(store: Store, workspace: number, account: number, since: number): ResultRow[] {
  return (store.sql(`SELECT ${COLUMNS} FROM results WHERE workspace = ? AND account = ? AND success = 1 AND at >= ? ORDER BY at DESC, row DESC`).all(workspace, account, since) as unknown as Row[]).map(fromRow);
}

/** The newest result, or undefined before the first. */
export function lastResult(store: Store, workspace: number): ResultRow | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM results WHERE workspace = ? ORDER BY row DESC LIMIT 1`).get(workspace) as Row | undefined;
  return r && fromRow(r);
}

/** How many of a platform's stored rows are at or before `row`. */
function countUpTo(store: Store, workspace: number, platform: string, row: number): number {
  const r = store.sql(LAST_NTH).get(workspace, platform, row) as { nth: number } | undefined;
  return r ? r.nth + 1 : 0;
}

/**
 * Newest-first positions of the results on one of `platforms` (distinct). Index lookups only,
 * however deep the page: each platform's count is its last nth; the row at the page's start
 * is the smallest position with enough matches at or before it, found by bisecting positions
 * (about 40 steps of one lookup per platform); the page is then the rows at or before it, one
 * index range per platform merged by SQLite (a compound SELECT ordered by row) up to `limit`.
 * (An OFFSET, or a count(*), would step through every row it skips: 0.6 s at 900,000.)
 */
export function resultPage(store: Store, workspace: number, platforms: readonly string[], offset: number, limit: number): { total: number; items: number[] } {
  const upTo = (row: number) => platforms.reduce((n, p) => n + countUpTo(store, workspace, p, row), 0);
  const total = upTo(Number.MAX_SAFE_INTEGER);
  if (offset >= total || limit <= 0) return { total, items: [] };
  // The page starts at the (total - offset)th match in position order.
  const wanted = total - offset;
  let low = 0;
  let high = lastResult(store, workspace)?.row ?? 0;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    if (upTo(middle) >= wanted) high = middle;
    else low = middle + 1;
  }
  const arms = platforms.map(() => 'SELECT row FROM results WHERE workspace = ? AND platform = ? AND row <= ?').join(' UNION ALL ');
  const params = platforms.flatMap((p) => [workspace, p, low]);
  const rows = store.sql(`${arms} ORDER BY row DESC LIMIT ?`).all(...params, limit) as { row: number }[];
  return { total, items: rows.map((r) => r.row) };
}

/**
 * Newest-first positions of the results tied to one of `accounts` (`social_account_id`; rows
 * with no_account are tied to none): one range of the partial index results_by_account per
 * account, merged by SQLite (a compound SELECT ordered by row), with no sort of every match. An
 * account has a fraction of a platform's rows, so a plain count and OFFSET are kept here.
 */
export function accountResultPage(store: Store, workspace: number, accounts: readonly number[], offset: number, limit: number): { total: number; items: number[] } {
  if (accounts.length === 0) return { total: 0, items: [] };
  const total = Number((store.sql('SELECT count(*) AS n FROM results WHERE workspace = ? AND no_account = 0 AND account IN (SELECT value FROM json_each(?))').get(workspace, JSON.stringify(accounts)) as { n: number }).n);
  if (offset >= total || limit <= 0) return { total, items: [] };
  const arms = accounts.map(() => 'SELECT row FROM results WHERE workspace = ? AND account = ? AND no_account = 0').join(' UNION ALL ');
  const params = accounts.flatMap((a) => [workspace, a]);
  const rows = store.sql(`${arms} ORDER BY row DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as { row: number }[];
  return { total, items: rows.map((r) => r.row) };
}

