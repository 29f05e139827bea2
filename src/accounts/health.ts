// How each account is doing: its status from the accounts route, and its last success and last
// failure (code and when) from one page of the newest results, read while the accounts are being
// fetched: never a scan of every result. An account quiet for longer than that page shows no last
// outcome, and the commands say how far the window reached and how many accounts it left out.
import type { ApiClient } from '../client/types.js';
import { AbortedError } from '../client/errors.js';
import { PAGE } from '../wire/protocol.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { PostResult } from '../wire/schemas.js';
import { UNHEALTHY_STATUSES } from '../wire/account-status.js';
import { accountFromRow, loadAccounts } from './catalog.js';

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

/** Adds a row (newest first) to its account's health, if that outcome is not known yet. */
function note(health: Map<string, AccountHealth>, row: PostResult): void {
  const id = row.social_account_id;
  const h = id ? health.get(id) : undefined;
  if (!h) return;
  const outcome = { at: row.created_at ?? null, resultId: row.id, postId: row.post_id };
  if (row.success) h.lastSuccess ??= outcome;
  else h.lastFailure ??= { ...outcome, code: row.error?.code ?? null };
}

/**
 * Results in the health window: one page of the newest. A second page would find an outcome for
 * a few more accounts of a large workspace, but costs a request and as many rows again to check
 * on every run (`npm run bench accounts`); `accounts view` reads one account's own results.
 */
export const HEALTH_WINDOW = PAGE.maxLimit;

/**
 * The newest results (HEALTH_WINDOW of them, or fewer), newest first: needs no account ids, so it
 * runs alongside the accounts lookup. `platform` narrows it to the accounts' platforms.
 */
export async function recentWindow(client: ApiClient, query: { platform?: readonly string[] } = {}): Promise<PostResult[]> {
  const page = await client.results.list({ ...(query.platform?.length ? { platform: query.platform } : {}), limit: HEALTH_WINDOW });
  return page.data.data;
}

/** Health from rows already read (newest first), e.g. one account's recent results. */
export function healthFromRows(accounts: readonly SocialAccount[], rows: readonly PostResult[]): Map<string, AccountHealth> {
  const health = new Map(accounts.map((a) => [a.id, empty()]));
  for (const row of rows) note(health, row);
  return health;
}

/**
 * How many of these accounts the window held no outcome of while older results went unread: their
 * health is not known. 0 when the window was not full (it held every result there is).
 */
export function untoldCount(accounts: readonly AccountWithHealth[], window: readonly PostResult[]): number {
  if (window.length < HEALTH_WINDOW) return 0;
  return accounts.filter((a) => !a.health.lastSuccess && !a.health.lastFailure).length;
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
  if (client.dialect === 'syncpostly') return unhealthyByResults(client, failures ?? [], ids);
  const catalog = await loadAccounts(client, { status: UNHEALTHY_STATUSES, derive: false });
  return new Map(catalog.accounts.filter((a) => UNHEALTHY_STATUSES.includes(a.status ?? '') && (!ids || ids.has(a.id))).map((a) => [a.id, a]));
}

/**
 * These accounts with their state, for a warning before a write, `posts check --account` or the
 * STATUS of `accounts list` and `view`: socialpub's API has it in each account's status, read with
 * the accounts (no request here); SyncPostly's accounts have none, so there the newest result of
 * each tells it, as unhealthyAccounts reads it: expired or disconnected by its code, else
 * `connected` (it published, or failed for another cause); no status when the window holds none
 * of its results. `window`: the newest results of the accounts' platforms, already read (no
 * request); without it, one request reads them. `bestEffort`: when that read fails, the accounts
 * as they were (a warning is all that hangs on it; Ctrl-C still stops the run).
 */
export async function withHealthStatus(
  client: ApiClient,
  accounts: readonly SocialAccount[],
  options: { bestEffort?: boolean; window?: readonly PostResult[] } = {},
): Promise<SocialAccount[]> {
  if (client.dialect !== 'syncpostly' || !accounts.length) return [...accounts];
  let newest: Map<string, PostResult>;
  try {
    newest = options.window ? newestOf(options.window) : await newestResults(client, [], [...new Set(accounts.map((a) => a.platform))]);
  } catch (err) {
    if (!options.bestEffort || err instanceof AbortedError) throw err;
    return [...accounts];
  }
  return accounts.map((a) => {
    const row = newest.get(a.id);
    return row ? { ...a, status: statusOfResult(row) ?? 'connected' } : a;
  });
}

/**
 * Whether a status filter goes to the service: SyncPostly's accounts carry no status, nor a
 * filter on it, so there the filter applies to the status their newest results tell (byStatus).
 */
export const sendsStatusFilter = (client: ApiClient, status: readonly string[]): boolean => status.length > 0 && client.dialect !== 'syncpostly';

/**
 * The accounts (their status told, withHealthStatus) that have one of the statuses, where the
 * service could not filter them (SyncPostly's API): with what to tell the user about how the
 * status was found, in the words of the caller: `field` names the filter (`--status`,
 * `statuses`), `all` where every account is listed. Unfiltered otherwise.
 */
export function byStatus(
  client: ApiClient,
  accounts: readonly SocialAccount[],
  status: readonly string[],
  window: number,
  words: { field: string; all: string },
): { accounts: SocialAccount[]; note?: string } {
  const { field, all } = words;
  if (status.length === 0 || sendsStatusFilter(client, status)) return { accounts: [...accounts] };
  const listed = accounts.filter((a) => status.includes(a.status ?? ''));
  const unknown = accounts.filter((a) => !a.status).length;
  if (window === 0) return { accounts: listed, note: `${field}: SyncPostly's accounts carry no status and there are no results yet to infer it from: every account is unknown and matches no ${field}` };
  const told = `${field}: SyncPostly's accounts carry no status, so it is inferred from each account's newest result among the newest ${window === 1 ? 'result' : `${window} results`} (TOKEN_EXPIRED expired, ACCOUNT_DISCONNECTED disconnected, any other outcome connected)`;
  if (unknown === 0) return { accounts: listed, note: told };
  return { accounts: listed, note: `${told}; ${unknown} account${unknown === 1 ? ' with no result there is' : 's with no result there are'} unknown and match${unknown === 1 ? 'es' : ''} no ${field} (${all})` };
}

/** The failure codes that are the account's state, not the post's (contract 7.2), and the status each stands for. */
const STATUS_OF_CODE: ReadonlyMap<string, string> = new Map([
  ['TOKEN_EXPIRED', 'expired'],
  ['ACCOUNT_DISCONNECTED', 'disconnected'],
]);

/** expired or disconnected when the result's failure says so; undefined otherwise. */
const statusOfResult = (row: PostResult): string | undefined => (row.success ? undefined : STATUS_OF_CODE.get(row.error?.code ?? ''));

/**
 * Each account's newest result: the recent window (one request; of `platform`'s results when
 * given), then the given rows (newest first), which may be older than it.
 */
async function newestResults(client: ApiClient, rows: readonly PostResult[], platform?: readonly string[]): Promise<Map<string, PostResult>> {
  return newestOf([...(await recentWindow(client, { platform })), ...rows]);
}

/** Each account's first row of these (newest first). */
function newestOf(rows: readonly PostResult[]): Map<string, PostResult> {
  const newest = new Map<string, PostResult>();
  for (const row of rows) {
    const id = row.social_account_id;
    if (id && !newest.has(id)) newest.set(id, row);
  }
  return newest;
}

/**
 * SyncPostly's accounts carry no status (assumptions.accountHealth): an account's newest result
 * tells it instead. Its newest failed with TOKEN_EXPIRED or ACCOUNT_DISCONNECTED, and nothing
 * newer: expired or disconnected. The account is named from its row (platform, handle).
 */
async function unhealthyByResults(client: ApiClient, rows: readonly PostResult[], ids: ReadonlySet<string> | undefined): Promise<Map<string, SocialAccount>> {
  const unhealthy = new Map<string, SocialAccount>();
  for (const [id, row] of await newestResults(client, rows)) {
    const status = statusOfResult(row);
    if (status && (!ids || ids.has(id))) unhealthy.set(id, { ...accountFromRow(row, id), status });
  }
  return unhealthy;
}
