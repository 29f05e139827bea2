// `socialpub auth`: store, check and forget the API key of a workspace profile.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { defineLogin } from './login.js';
import { defineLogout } from './logout.js';
import { defineStatus } from './status.js';

export function defineAuth(program: CommandUnknownOpts, ctx: Context): void {
  const auth = program
    .command('auth')
    .summary('log in with an API key, check it, log out')
    .description(
      'Manage the API key of a workspace profile. The key comes from a hidden prompt, from stdin (--with-key) or, for one run, from SOCIALPUB_API_KEY; never from a flag value. It is checked against the API before it is saved, and is only ever shown as …last4.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub auth login --base-url https://api.example.com
  printf %s "$SOCIALPUB_KEY" | socialpub auth login --with-key --profile ci
  socialpub auth status --json
  socialpub auth logout --profile old-workspace`,
    );
  defineLogin(auth, ctx);
  defineStatus(auth, ctx);
  defineLogout(auth, ctx);
}
