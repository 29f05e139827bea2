// `socialpub results get <id>`: one post result in full.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';

export type GetFlags = FlagsOf<typeof getCommand>;

function getCommand(results: CommandUnknownOpts) {
  return results
    .command('get')
    .summary('show one post result in full')
    .description(
      "Shows every field of one post result: the platform's URL for a success, or the error code, message and provider context for a failure, and the post it belongs to. Ids are scoped to the workspace of the profile's key: another workspace's id answers not found (exit 4).",
    )
    .argument('<id>', 'result id')
    .option('--web', 'open the live post in the browser (SOCIALPUB_BROWSER, BROWSER); without one, print its URL')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results get res_01HZX3
  socialpub results get res_01HZX3 --json | jq .error.context
  socialpub results get res_01HZX3 --web`,
    );
}

export function defineGet(results: CommandUnknownOpts, ctx: Context): void {
  getCommand(results).action(action(ctx, async (id, flags) => (await import('./get.run.js')).runGet(ctx, id, flags)));
}
