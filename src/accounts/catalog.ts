// The workspace's accounts: from GET /v1/social-accounts, or, on a service without that route
// (405, or a 404 without the contract's error body), derived from the newest results: each
// social_account_id with its platform and platform_data.username. Which of the two it was is
// told, so a command can say so.
import { ApiError, lacksRoute } from '../client/errors.js';
import type { ApiClient } from '../client/types.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { PostResult } from '../wire/schemas.js';

export interface AccountCatalog {
  accounts: SocialAccount[];
  /** Worked out from results: the service has no accounts route (status, default and expiry unknown). */
  derived: boolean;
  /** With `derived`: how many of the newest results were read. */
  scanned?: number;
}

export interface CatalogQuery {
  platform?: readonly string[];
  status?: readonly string[];
  /** false: on a service without the route, answer no accounts rather than reading results. */
  derive?: boolean;
}

/** Results read, newest first, to derive accounts from: a few pages, never the whole history. */
export const DERIVE_ROWS = 500;

export async function loadAccounts(client: ApiClient, query: CatalogQuery = {}): Promise<AccountCatalog> {
  const accounts: SocialAccount[] = [];
  try {
    const { platform, status } = query;
    for await (const a of client.accounts.iterate({ ...(platform ? { platform } : {}), ...(status ? { status } : {}), limit: 100 }, { pageSize: 100 })) accounts.push(a);
    // A service may ignore a filter it does not know: the rows are filtered here too.
    return { accounts: accounts.filter((a) => matches(a, query)), derived: false };
  } catch (err) {
    // A list has no id that could be missing: any 404 there (with or without the contract's body) is a service without the route.
    if (!lacksRoute(err) && !(err instanceof ApiError && err.status === 404)) throw err;
  }
  if (query.derive === false) return { accounts: [], derived: true, scanned: 0 };
  return deriveAccounts(client, query);
}

/**
 * The accounts by id, to name a post's targets with; a view goes on without them (they are a
 * nicety): on a service without the route, or any error, none. `onePage`: at most one request
 * (the first page of the route), for a view that promises no more.
 */
export async function accountsById(client: ApiClient, options: { onePage?: boolean } = {}): Promise<Map<string, SocialAccount>> {
  try {
    if (!options.onePage) return new Map((await loadAccounts(client, { derive: false })).accounts.map((a) => [a.id, a]));
    const byId = new Map<string, SocialAccount>();
    let first: number | undefined;
    let read = 0;
    // Later pages are asked for only once the first page's rows are all read: stopping there sends none.
    for await (const a of client.accounts.iterate({}, { pageSize: 100, concurrency: 1, onPage: (p) => void (first ??= p.count) })) {
      byId.set(a.id, a);
      if (++read >= (first ?? 0)) break;
    }
    return byId;
  } catch {
    return new Map();
  }
}

function matches(a: SocialAccount, q: CatalogQuery): boolean {
  if (q.platform?.length && !q.platform.includes(a.platform)) return false;
  if (q.status?.length && !q.status.includes(a.status ?? '')) return false;
  return true;
}

async function deriveAccounts(client: ApiClient, query: CatalogQuery): Promise<AccountCatalog> {
  const byId = new Map<string, SocialAccount>();
  let scanned = 0;
  for await (const page of client.results.pages({ ...(query.platform?.length ? { platform: query.platform } : {}) }, { pageSize: 100 })) {
    for (const row of page) addFrom(byId, row);
    scanned += page.length;
    if (scanned >= DERIVE_ROWS) break;
  }
  // Derived accounts have no status: a status filter keeps none of them.
  const accounts = query.status?.length ? [] : [...byId.values()].filter((a) => matches(a, query.platform ? { platform: query.platform } : {}));
  return { accounts, derived: true, scanned };
}

function addFrom(byId: Map<string, SocialAccount>, row: PostResult): void {
  const id = row.social_account_id;
  if (!id || byId.has(id)) return;
  byId.set(id, accountFromRow(row, id));
}

/** What a result row tells of its account: the platform and the handle; status, default and expiry unknown. */
export function accountFromRow(row: PostResult, id: string): SocialAccount {
  const username = typeof row.platform_data?.username === 'string' ? row.platform_data.username : null;
  return { id, platform: row.platform ?? '', username, displayName: null, status: null, isDefault: null, tokenExpiresAt: null, connectedAt: null };
}
