// `socialpub profile show [name]`: one profile as a run would use it, with where each value
// comes from. No request is made (`socialpub auth status` checks the key).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function defineShow(profile: CommandUnknownOpts, ctx: Context): void {
  profile
    .command('show')
    .argument('[name]', 'a saved profile (default: the one this run would use)')
    .summary('show one profile: base URL, API, key as …last4, where each comes from')
    .description(
      'Show a profile as a run would use it: the base URL, the API it speaks and the key, where each comes from (flag, environment, profile file), and any other fields its entry in the file holds. Without a name, the profile this run resolves to. Exits 4 when a named profile does not exist. Makes no request: `socialpub auth status` checks the key.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile show
  socialpub profile show acme --json
  SOCIALPUB_PROFILE=ci socialpub profile show`,
    )
    .action(action(ctx, async (name: string | undefined) => (await import('./show.run.js')).show(ctx, name)));
}
