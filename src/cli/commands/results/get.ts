// `socialpub results get <id>`: one post result in full.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function defineGet(results: Command, ctx: Context): void {
  results
    .command('get')
    .summary('show one post result in full')
    .description(
      "Shows every field of one post result: the platform's URL for a success, or the error code, message and provider context for a failure, and the post it belongs to. Ids are scoped to the workspace of the profile's key: another workspace's id answers not found (exit 4).",
    )
    .argument('<id>', 'result id')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results get res_01HZX3
  socialpub results get res_01HZX3 --json | jq .error.context
  socialpub results get res_01HZX3 --profile client-b`,
    )
    .action(action(ctx, async (id: string) => (await import('./get.run.js')).runGet(ctx, id)));
}
