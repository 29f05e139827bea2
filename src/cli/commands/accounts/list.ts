// `socialpub accounts list`: every account with its status and health.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';
import { PLATFORMS } from '../../../wire/platforms.js';
import { ACCOUNT_STATUSES } from '../../../wire/account-status.js';

export type AccountsListFlags = FlagsOf<typeof listCommand>;

function listCommand(accounts: CommandUnknownOpts) {
  return accounts
    .command('list')
    .summary('list the accounts: platform, handle, status, default, token expiry, last success and failure')
    .description(
      "Lists the workspace's connected accounts with their status (connected, expired, disconnected), which one is each platform's default, when the token expires, and the last success and last failure (code, when) among the newest 100 results (one page), read alongside the accounts, never the whole history: an account quiet for longer shows no last outcome (the footer says how far back the window reaches and how many accounts it told nothing of; accounts view reads one account's own results). On a service without the accounts route, the accounts are worked out from recent results, and the command says so.",
    )
    .option('--platform <id>', `only accounts on these platforms, repeatable or comma-separated (${PLATFORMS.join(', ')})`, collect)
    .option('--status <s>', `only accounts in these states, repeatable or comma-separated (${ACCOUNT_STATUSES.join(', ')}); in SyncPostly's API, the state the newest results tell (an account with none there matches none)`, collect)
    .addHelpText(
      'after',
      `
Examples:
  socialpub accounts list
  socialpub accounts list --platform linkedin,instagram
  socialpub accounts list --status expired --json | jq -r '.[].id'`,
    );
}

export function defineAccountsList(accounts: CommandUnknownOpts, ctx: Context): void {
  listCommand(accounts).action(action(ctx, async (flags) => (await import('./list.run.js')).runAccountsList(ctx, flags)));
}
