// `socialpub auth status`: which profile, base URL and key a run would use, where each came
// from, and whether the API accepts the key. Exit 3 when there is no key or it is refused.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action } from '../../action.js';


export function defineStatus(auth: CommandUnknownOpts, ctx: Context): void {
  auth
    .command('status')
    .summary('show the profile, base URL and key in use, and whether the API accepts the key')
    .description(
      'Show which profile, base URL, API (socialpub, or SyncPostly: experimental) and key this shell would use and where each comes from (flag, environment, profile file, told apart at login), then check the key with one cheap authenticated read. Exits 3 when there is no key or the API refuses it, with the fix. The key is only ever shown as …last4.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub auth status
  socialpub auth status --profile acme
  socialpub auth status --json | jq .valid
  SOCIALPUB_API_KEY=... socialpub auth status`,
    )
    .action(action(ctx, async () => (await import('./status.run.js')).status(ctx)));
}
