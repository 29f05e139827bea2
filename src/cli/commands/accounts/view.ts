// `socialpub accounts view <id|@handle|platform:@handle>`: one account, its health and recent results.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';

export type AccountsViewFlags = FlagsOf<typeof viewCommand>;

function viewCommand(accounts: CommandUnknownOpts) {
  return accounts
    .command('view')
    .summary('one account: its state, health and recent results')
    .description(
      'Shows one account (by id, @handle, or platform:@handle when a handle is used on several platforms): its status, whether it is the default, token expiry, and its most recent results. An account that does not exist is exit 4, an ambiguous handle exit 2, each with the candidates.',
    )
    .argument('<account>', 'account id, @handle or platform:@handle')
    .option('--limit <n>', 'recent results to show', '10')
    .addHelpText(
      'after',
      `
Examples:
  socialpub accounts view @socialpub_demo
  socialpub accounts view instagram:@socialpub.demo
  socialpub accounts view acc_01HZX3 --json`,
    );
}

export function defineAccountsView(accounts: CommandUnknownOpts, ctx: Context): void {
  viewCommand(accounts).action(action(ctx, async (ref, flags) => (await import('./view.run.js')).runAccountsView(ctx, ref, flags)));
}
