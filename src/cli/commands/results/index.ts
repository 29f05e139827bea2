// `socialpub results …`: page, filter, inspect and wait for post results.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { defineList } from './list.js';
import { defineGet } from './get.js';
import { defineWait } from './wait.js';
import { defineStats } from './stats.js';
import { defineRetry } from './retry.js';
import { defineVerbs } from '../named.js';

export function defineResults(program: CommandUnknownOpts, ctx: Context, argv?: readonly string[]): void {
  const results = program
    .command('results')
    .summary('list, inspect, count, retry and wait for post results (one per target account)')
    .description(
      'Post results are one record per target account of a post, a success with the live URL or a failure with an error code, message and provider context. List and filter them, look at one in detail, or wait in CI until every target of a post has reported.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub results list --failed --limit 50
  socialpub results get res_01HZX3
  socialpub results wait --post post_01HZX2 --timeout 10m`,
    );
  defineVerbs(results, ctx, argv, { list: defineList, get: defineGet, wait: defineWait, stats: defineStats, retry: defineRetry });
}
