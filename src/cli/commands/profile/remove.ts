// `socialpub profile remove <name>`: forget a profile, its key included.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function defineRemove(profile: CommandUnknownOpts, ctx: Context): void {
  profile
    .command('remove')
    .alias('rm')
    .argument('<name>', 'a saved profile')
    .summary('delete a profile and its stored key')
    .description(
      'Delete a saved profile: its base URL and stored key, and the webhook secret file `sandbox --write-profile` saved for it (NAME.webhook-secret beside the profiles). When it was the current profile, no profile is current afterwards and runs fall back to "default". Exits 4 when there is no such profile. The key stays valid at the service until it is rotated in Settings → Developers.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile remove old-workspace
  socialpub profile rm sandbox`,
    )
    .action(action(ctx, async (name: string) => (await import('./remove.run.js')).remove(ctx, name)));
}
