// The `accounts` argument of the write tools: references resolved against the workspace's
// accounts (one lookup), as --account is on the command line; a bad one is invalid input naming it.
import { loadAccounts } from '../../accounts/catalog.js';
import { resolveAccounts } from '../../accounts/resolve.js';
import type { ApiClient } from '../../client/types.js';
import type { SocialAccount } from '../../wire/account-schemas.js';

export async function namedAccounts(client: ApiClient, refs: readonly string[] | undefined): Promise<SocialAccount[] | undefined> {
  if (!refs?.length) return undefined;
  const catalog = await loadAccounts(client);
  return resolveAccounts(refs, catalog.accounts, { field: 'accounts', derived: catalog.derived });
}
