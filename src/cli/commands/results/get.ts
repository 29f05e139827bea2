// `socialpub results get <id>`: one post result in full.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';

export function register(results: Command, ctx: Context): void {
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
    .action(action(ctx, (id: string) => runGet(ctx, id)));
}

export async function runGet(ctx: Context, id: string): Promise<number> {
  const trimmed = id.trim();
  if (!trimmed) throw new UsageError('results get: give a result id', ['find ids with `socialpub results list`']);
  const client = await ctx.client();
  const { ApiError, NotFoundError } = await import('../../../client/errors.js');
  let row;
  try {
    row = (await client.results.get(trimmed)).data;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-found') {
      // The service answers 404 for another workspace's id too: say where we looked, nothing more.
      const profile = await ctx.profile();
      throw new NotFoundError(`no result ${trimmed} in the workspace of profile ${profile.name}`, {
        ...(err.status !== undefined ? { status: err.status } : {}),
        ...(err.code !== undefined ? { code: err.code } : {}),
        ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
        body: err.body,
        cause: err,
      });
    }
    throw err;
  }
  const out = ctx.output();
  const { renderResult } = await import('../../results/detail.js');
  await out.object(row, () => renderResult(row, out.colors, ctx.clock.now()));
  if (out.format !== 'json' && out.format !== 'ndjson') {
    out.info(out.colors.dim(`all results of this post: socialpub results list --post ${row.post_id}`));
  }
  return 0;
}
