// The social accounts of each workspace, by workspace and position (`idx`, the number inside the
// account's id). Seeded once per workspace; afterwards only their state changes.
import type { Platform } from '../../wire/platforms.js';
import type { Store } from './store.js';

import { ACCOUNT_STATUSES, type AccountStatus } from '../../wire/account-status.js';
export { ACCOUNT_STATUSES, type AccountStatus };

export interface AccountRow {
  index: number;
  platform: Platform;
  username: string;
  displayName: string | null;
  status: AccountStatus;
  isDefault: boolean;
  tokenExpiresAt: number | null;
  connectedAt: number;
  /** Fixture rows (the past) go to it only before this time: a seeded expired account stopped publishing when it expired. */
  fixturesUntil: number;
}

interface Row {
  idx: number;
  platform: string;
  username: string;
  display_name: string | null;
  status: string;
  is_default: number;
  token_expires_at: number | null;
  connected_at: number;
  fixtures_until: number | null;
}

const COLUMNS = 'idx, platform, username, display_name, status, is_default, token_expires_at, connected_at, fixtures_until';
const fromRow = (r: Row): AccountRow => ({
  index: r.idx,
  platform: r.platform as Platform,
  username: r.username,
  displayName: r.display_name,
  status: r.status as AccountStatus,
  isDefault: r.is_default === 1,
  tokenExpiresAt: r.token_expires_at,
  connectedAt: r.connected_at,
  fixturesUntil: r.fixtures_until ?? Infinity,
});

export function insertAccount(store: Store, workspace: number, a: AccountRow): void {
  store.run(
    `INSERT INTO accounts (workspace, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    workspace,
    a.index,
    a.platform,
    a.username,
    a.displayName,
    a.status,
    a.isDefault ? 1 : 0,
    a.tokenExpiresAt,
    a.connectedAt,
    Number.isFinite(a.fixturesUntil) ? a.fixturesUntil : null,
  );
}

/** The state a change of the account (expire, disconnect, reconnect) sets. */
export function updateAccountState(store: Store, workspace: number, a: Pick<AccountRow, 'index' | 'status' | 'tokenExpiresAt' | 'connectedAt'>): void {
  store.run('UPDATE accounts SET status = ?, token_expires_at = ?, connected_at = ? WHERE workspace = ? AND idx = ?', a.status, a.tokenExpiresAt, a.connectedAt, workspace, a.index);
}

export function readAccount(store: Store, workspace: number, index: number): AccountRow | undefined {
  const r = store.sql(`SELECT ${COLUMNS} FROM accounts WHERE workspace = ? AND idx = ?`).get(workspace, index) as Row | undefined;
  return r && fromRow(r);
}

/** Every account of the workspace, by position. */
export function readAccounts(store: Store, workspace: number): AccountRow[] {
  return (store.sql(`SELECT ${COLUMNS} FROM accounts WHERE workspace = ? ORDER BY idx`).all(workspace) as unknown as Row[]).map(fromRow);
}
