// `socialpub accounts …`: the connected accounts of the workspace and how each is doing.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { defineVerbs } from '../named.js';
import { defineAccountsList } from './list.js';
import { defineAccountsView } from './view.js';

export function defineAccounts(program: CommandUnknownOpts, ctx: Context, argv?: readonly string[]): void {
  const accounts = program
    .command('accounts')
    .summary('the connected accounts posts go to, and which need attention')
    .description(
      'A workspace publishes to connected accounts: one or more per platform (two LinkedIn pages, a brand and a personal Instagram), one of them the default. List them with their status, token expiry and last outcomes, or look at one with its recent results. Name them with --account on posts create, schedule and edit, and on results list, stats and wait.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub accounts list
  socialpub accounts list --status expired,disconnected
  socialpub accounts view linkedin:@socialpub-demo`,
    );
  defineVerbs(accounts, ctx, argv, { list: defineAccountsList, view: defineAccountsView });
}
