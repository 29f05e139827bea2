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
}

const COLUMNS = 'row, post, platform, success, no_account, broke_rule, at, account, account_failure';
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
});

export function insertResult(store: Store, workspace: number, r: ResultRow): void {
  store.run(
    `INSERT INTO results (workspace, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

/** The newest result, or undefined before the first. */
export function lastResult(store: Store, workspace: number): ResultRow | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM results WHERE workspace = ? ORDER BY row DESC LIMIT 1`).get(workspace) as Row | undefined;
  return r && fromRow(r);
}

/** Newest-first positions of the results on one of `platforms`. */
export function resultPage(store: Store, workspace: number, platforms: readonly string[], offset: number, limit: number): { total: number; items: number[] } {
  return pageBy(store, workspace, 'platform', platforms, offset, limit);
}

/** Newest-first positions of the results tied to one of `accounts` (`social_account_id`; rows with no_account are tied to none). */
export function accountResultPage(store: Store, workspace: number, accounts: readonly number[], offset: number, limit: number): { total: number; items: number[] } {
  return pageBy(store, workspace, 'account', accounts, offset, limit);
}

/**
 * One index range per value (results_by_platform, results_by_account), merged by SQLite (a
 * compound SELECT ordered by row), with no sort of every match.
 */
function pageBy(store: Store, workspace: number, column: 'platform' | 'account', values: readonly (string | number)[], offset: number, limit: number): { total: number; items: number[] } {
  if (values.length === 0) return { total: 0, items: [] };
  // The partial index results_by_account covers only rows tied to an account: the condition is its own.
  const tied = column === 'account' ? ' AND no_account = 0' : '';
  const total = Number((store.sql(`SELECT count(*) AS n FROM results WHERE workspace = ?${tied} AND ${column} IN (SELECT value FROM json_each(?))`).get(workspace, JSON.stringify(values)) as { n: number }).n);
  if (offset >= total || limit <= 0) return { total, items: [] };
  const arms = values.map(() => `SELECT row FROM results WHERE workspace = ? AND ${column} = ?${tied}`).join(' UNION ALL ');
  const params = values.flatMap((v) => [workspace, v]);
  const rows = store.sql(`${arms} ORDER BY row DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as { row: number }[];
  return { total, items: rows.map((r) => r.row) };
}
