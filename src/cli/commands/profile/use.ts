// `socialpub profile use <name>`: make a saved profile the current one.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function defineUse(profile: CommandUnknownOpts, ctx: Context): void {
  profile
    .command('use')
    .argument('<name>', 'a saved profile')
    .summary('make a profile the current one')
    .description(
      'Make a saved profile the current one: later runs use it unless --profile or SOCIALPUB_PROFILE says otherwise. Exits 4 when there is no such profile (create one with `socialpub auth login --profile NAME`).',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile use acme
  socialpub profile use sandbox && socialpub posts list`,
    )
    .action(action(ctx, async (name: string) => (await import('./use.run.js')).use(ctx, name)));
}
