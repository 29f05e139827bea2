// `--account` for the commands that take it (posts create/schedule/edit, results list/stats/wait):
// the references resolved against the workspace's accounts, one lookup, before anything else is
// sent; an unknown or ambiguous one is exit 2 with the candidates.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../../client/types.js';
import { loadAccounts, type AccountCatalog, type CatalogQuery } from '../../../accounts/catalog.js';
import { accountLabel, handleOf } from '../../../accounts/label.js';
import { rememberAccounts } from '../../post-id-cache.js';
import { resolveAccounts } from '../../../accounts/resolve.js';
import { flagError, givenList } from '../../flags/text.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { isPlatform } from '../../../wire/platforms.js';
import type { PostResult } from '../../../wire/schemas.js';
import type { RowFilter } from '../../../results/selection.js';

export interface AccountChoice {
  accounts: SocialAccount[];
  catalog: AccountCatalog;
}

/** The accounts `--account` names, or undefined when it was not given. */
export async function accountFlag(ctx: Context, client: ApiClient, refs: readonly string[] | undefined): Promise<AccountChoice | undefined> {
  const list = givenList('--account', refs, 'an account id, @handle or platform:@handle', ['`socialpub accounts list` shows them']);
  if (list.length === 0) return undefined;
  const catalog = await lookUp(ctx, client);
  const accounts = resolveAccounts(list, catalog.accounts, { derived: catalog.derived });
  if (catalog.derived) ctx.output().notice(derivedNotice(catalog));
  return { accounts, catalog };
}

/** The workspace's accounts, their handles remembered for shell completion. */
export async function lookUp(ctx: Context, client: ApiClient, query: CatalogQuery = {}): Promise<AccountCatalog> {
  const catalog = await loadAccounts(client, query);
  if (!query.platform?.length && !query.status?.length) await rememberAccounts(ctx, completionWords(catalog.accounts));
  return catalog;
}

/** `platform:@handle` for every account, and `@handle` alone where it names one account only. */
function completionWords(accounts: readonly SocialAccount[]): string[] {
  const counts = new Map<string, number>();
  for (const a of accounts) counts.set(handleOf(a), (counts.get(handleOf(a)) ?? 0) + 1);
  return [...accounts.filter((a) => counts.get(handleOf(a)) === 1).map(handleOf), ...accounts.map(accountLabel)];
}

export function derivedNotice(catalog: AccountCatalog): string {
  return `this service has no accounts route (GET /v1/social-accounts): accounts were derived from the newest ${catalog.scanned ?? 0} results, so their status, default and token expiry are unknown`;
}

/**
 * `--account` naming an account of a platform `--platform` leaves out selects nothing: refused, as
 * `posts edit --remove-platform` refuses its contradictions, rather than answered with an empty list.
 */
export function accountOffPlatforms(account: string, platform: string, platforms: readonly string[]) {
  return flagError('--account', `${account} is an account of ${platform}, which --platform ${platforms.join(',')} leaves out: nothing would be selected`, [
    `add the platform (--platform ${[...platforms, platform].join(',')}) or drop --account ${account}`,
  ]);
}

/** Before any request: a `platform:@handle` reference whose platform `--platform` leaves out. */
export function refuseAccountRefsOffPlatforms(refs: readonly string[] | undefined, platforms: readonly string[]): void {
  if (platforms.length === 0) return;
  for (const ref of refs ?? []) {
    const colon = ref.indexOf(':');
    const platform = colon > 0 ? ref.slice(0, colon).trim().toLowerCase() : undefined;
    if (platform !== undefined && isPlatform(platform) && !platforms.includes(platform)) throw accountOffPlatforms(ref.trim(), platform, platforms);
  }
}

/** A results filter narrowed to these accounts: on the service, and row by row (a service may ignore the parameter). */
export function narrowToAccounts(filter: RowFilter, accounts: readonly SocialAccount[]): RowFilter {
  const platforms = filter.query.platform ?? [];
  const off = platforms.length ? accounts.find((a) => !platforms.includes(a.platform)) : undefined;
  if (off) throw accountOffPlatforms(accountLabel(off), off.platform, platforms);
  const ids = new Set(accounts.map((a) => a.id));
  const keep = filter.keep;
  const mine = (row: PostResult) => typeof row.social_account_id === 'string' && ids.has(row.social_account_id);
  return { ...filter, query: { ...filter.query, socialAccountId: [...ids] }, keep: keep ? (row) => mine(row) && keep(row) : mine };
}
