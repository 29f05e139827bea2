// `socialpub profile list`: every profile with its base URL and key as …last4.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';


export function defineList(profile: CommandUnknownOpts, ctx: Context): void {
  profile
    .command('list')
    .alias('ls')
    .summary('list profiles: name, current marker, base URL, API, key as …last4')
    .description(
      'List every saved profile. The current one is marked with *. Keys are shown as …last4. Piped output is TSV (name, current, base URL, API, key); --json prints an array of objects.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile list
  socialpub profile list --json
  socialpub profile list | cut -f1`,
    )
    .action(action(ctx, async () => (await import('./list.run.js')).list(ctx)));
}
