// How each account is doing: its status from the accounts route, and its last success and last
// failure (code and when) from recent results, read cheaply: one page of the newest results of
// these accounts (social_account_id filter), and one more page only for the accounts that page
// did not settle. Never a scan of every result; an account quiet for longer shows no last outcome.
import type { ApiClient } from '../client/types.js';
import { PAGE } from '../wire/protocol.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { PostResult } from '../wire/schemas.js';
import { UNHEALTHY_STATUSES } from '../wire/account-schemas.js';
import { loadAccounts } from './catalog.js';

export interface Outcome {
  at: string | null;
  resultId: string;
  postId: string;
}

export interface AccountHealth {
  lastSuccess: Outcome | null;
  lastFailure: (Outcome & { code: string | null }) | null;
}

/** An account as `accounts list` and `list_accounts` give it: the service's object plus `health`. */
export type AccountWithHealth = SocialAccount & { health: AccountHealth };

const empty = (): AccountHealth => ({ lastSuccess: null, lastFailure: null });
const settled = (h: AccountHealth | undefined) => h !== undefined && h.lastSuccess !== null && h.lastFailure !== null;

/** Adds a row (newest first) to its account's health, if that outcome is not known yet. */
function note(health: Map<string, AccountHealth>, row: PostResult): void {
  const id = row.social_account_id;
  const h = id ? health.get(id) : undefined;
  if (!h) return;
  const outcome = { at: row.created_at ?? null, resultId: row.id, postId: row.post_id };
  if (row.success) h.lastSuccess ??= outcome;
  else h.lastFailure ??= { ...outcome, code: row.error?.code ?? null };
}

/** Each account's last success and failure among recent results (at most two requests). */
export async function recentHealth(client: ApiClient, accounts: readonly SocialAccount[]): Promise<Map<string, AccountHealth>> {
  const health = new Map(accounts.map((a) => [a.id, empty()]));
  let open = accounts.map((a) => a.id);
  for (let round = 0; round < 2 && open.length > 0; round++) {
    const page = await client.results.list({ socialAccountId: open, limit: PAGE.maxLimit });
    const asked = new Set(open);
    // The client filters too: a service may ignore a parameter it does not know.
    const rows = page.data.data.filter((r) => r.social_account_id && asked.has(r.social_account_id));
    for (const row of rows) note(health, row);
    // A service that ignored the filter would answer the same page again: no second round then.
    if (rows.length < page.data.data.length) break;
    open = open.filter((id) => !settled(health.get(id)));
  }
  return health;
}

/** Health from rows already read (newest first), e.g. one account's recent results. */
export function healthFromRows(accounts: readonly SocialAccount[], rows: readonly PostResult[]): Map<string, AccountHealth> {
  const health = new Map(accounts.map((a) => [a.id, empty()]));
  for (const row of rows) note(health, row);
  return health;
}

export function withHealth(accounts: readonly SocialAccount[], health: ReadonlyMap<string, AccountHealth>): AccountWithHealth[] {
  return accounts.map((a) => ({ ...a, health: health.get(a.id) ?? empty() }));
}

/**
 * The expired or disconnected accounts, by id (one request); with `failures`, only those some of
 * these failed rows were published with (no request when none failed). A service without the
 * accounts route tells nothing: an empty map, and every failed target is retried as before.
 */
export async function unhealthyAccounts(client: ApiClient, failures?: readonly PostResult[]): Promise<Map<string, SocialAccount>> {
  const ids = failures && new Set(failures.filter((r) => !r.success && r.social_account_id).map((r) => r.social_account_id!));
  if (ids?.size === 0) return new Map();
  const catalog = await loadAccounts(client, { status: UNHEALTHY_STATUSES, derive: false });
  return new Map(catalog.accounts.filter((a) => UNHEALTHY_STATUSES.includes(a.status ?? '') && (!ids || ids.has(a.id))).map((a) => [a.id, a]));
}
