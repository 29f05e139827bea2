// `socialpub auth logout`: forget the stored key of a profile (its base URL stays).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function defineLogout(auth: CommandUnknownOpts, ctx: Context): void {
  auth
    .command('logout')
    .summary("remove the stored API key of the profile (keeps its base URL)")
    .description(
      'Delete the API key stored in the resolved profile. The base URL stays, so `socialpub auth login` later only asks for a key. The key itself stays valid at the service until it is rotated in Settings → Developers. Succeeds when there was no key, and says so.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub auth logout
  socialpub auth logout --profile acme
  socialpub profile remove acme      # forget the whole profile instead`,
    )
    .action(action(ctx, async () => (await import('./logout.run.js')).logout(ctx)));
}
