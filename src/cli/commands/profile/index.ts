// `socialpub profile`: the workspace profiles (name → base URL, API key).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { defineList } from './list.js';
import { defineRemove } from './remove.js';
import { defineShow } from './show.js';
import { defineUse } from './use.js';

export function defineProfile(program: CommandUnknownOpts, ctx: Context): void {
  const profile = program
    .command('profile')
    .summary('list, switch, show and remove workspace profiles')
    .description(
      'A profile holds one workspace: its base URL and API key, in a 0600 file in a 0700 folder (SOCIALPUB_CONFIG_DIR moves it). A run uses --profile, else SOCIALPUB_PROFILE, else the current profile, else "default". Profiles are created by `socialpub auth login --profile NAME`.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile list
  socialpub profile use acme
  socialpub profile show --json
  socialpub profile remove old-workspace`,
    );
  defineList(profile, ctx);
  defineUse(profile, ctx);
  defineShow(profile, ctx);
  defineRemove(profile, ctx);
}
