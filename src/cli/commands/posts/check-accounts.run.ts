// `posts check --account`: the accounts named, read from the service with their state, onto the
// post being checked. A run module of its own, which the command's action loads only when
// --account is given: a check without it stays offline and loads no client.
import type { Context } from '../../context.js';
import type { CheckFlags } from './check.js';
import type { CheckEntry } from '../../../posts/check.js';
import { accountsAndPlatforms } from './accounts.js';
import { withHealthStatus } from '../../../accounts/health.js';
import { accountStatusChecks } from '../../../accounts/status-check.js';
import { attachAccounts } from '../../../accounts/resolve.js';

export interface AccountsOnto {
  /** The flags with the accounts' platforms as the post's when none was named. */
  flags: CheckFlags;
  onto(entry: CheckEntry): CheckEntry;
}

export type AccountsToCheck = typeof accountsToCheck;

/**
 * The accounts --account names, each with its state (withHealthStatus; a failed read fails the
 * check, which was asked to tell it), their platforms as the post's when none is named; `onto`
 * names them in the post's payloads (an account of a platform the post does not go to is a
 * problem, as create finds it) and adds each one's state to its platform's target.
 */
export async function accountsToCheck(ctx: Context, flags: CheckFlags): Promise<AccountsOnto | undefined> {
  const chosen = await accountsAndPlatforms(ctx, flags);
  if (!chosen) return undefined;
  const { client } = chosen;
  const accounts = await withHealthStatus(client, chosen.accounts);
  const extraChecks = accountStatusChecks(accounts, client.dialect, chosen.derived);
  return {
    flags: chosen.opts,
    onto: (entry) => ({ ...entry, issues: [...entry.issues, ...(entry.draft ? attachAccounts(entry.draft.platforms, accounts) : [])], extraChecks }),
  };
}
