// `socialpub results get <id>`: one post result in full.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { GetFlags } from './get.run.js';

export function defineGet(results: Command, ctx: Context): void {
  results
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
    )
    .action(action(ctx, async (id: string, flags: GetFlags) => (await import('./get.run.js')).runGet(ctx, id, flags)));
}
