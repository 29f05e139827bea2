// The `accounts` argument of the write tools: references resolved against the workspace's
// accounts (one lookup), as --account is on the command line; a bad one is invalid input naming it.
import { loadAccounts } from '../../accounts/catalog.js';
import { withHealthStatus } from '../../accounts/health.js';
import { resolveAccounts } from '../../accounts/resolve.js';
import { accountLabel, isUnhealthy } from '../../accounts/label.js';
import type { ApiClient } from '../../client/types.js';
import type { SocialAccount } from '../../wire/account-schemas.js';

/**
 * The accounts `refs` names, each with its state (withHealthStatus), and whether the service lacks
 * the accounts route (`derived`: no state is known). Undefined without refs. `bestEffort` (the
 * write tools, whose note is all that hangs on the state): a failed read of the state leaves it
 * untold; check_post, asked to tell it, fails instead.
 */
export async function namedAccounts(
  client: ApiClient,
  refs: readonly string[] | undefined,
  options: { bestEffort: boolean },
): Promise<{ accounts: SocialAccount[]; derived: boolean } | undefined> {
  if (!refs?.length) return undefined;
  const catalog = await loadAccounts(client);
  const named = resolveAccounts(refs, catalog.accounts, { field: 'accounts', derived: catalog.derived });
  // With the state, in either dialect (SyncPostly's accounts carry none).
  return { accounts: await withHealthStatus(client, named, options), derived: catalog.derived };
}

/**
 * Said with a write's answer when it names an expired or disconnected account: the service takes
 * the post, and that target then fails every time (TOKEN_EXPIRED, ACCOUNT_DISCONNECTED), which the
 * user should hear now rather than from a failed result.
 */
export function unhealthyAccountsNote(accounts: readonly SocialAccount[] | undefined): string {
  const bad = (accounts ?? []).filter((a) => isUnhealthy(a));
  return bad.length ? `. Tell the user: ${bad.map((a) => `${accountLabel(a)} is ${a.status}`).join(', ')}; reconnect ${bad.length === 1 ? 'it' : 'them'} in the service's settings (Settings → Connected accounts) before the post goes out, or ${bad.length === 1 ? 'that target fails' : 'those targets fail'}` : '';
}
