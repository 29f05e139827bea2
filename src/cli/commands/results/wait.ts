// `socialpub results wait --post ID`: for CI, block until every target of a post has a result.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { WaitFlags } from './wait.run.js';

export function defineWait(results: Command, ctx: Context): void {
  results
    .command('wait')
    .summary('wait until every target of a post has a result; exit 7 if any failed')
    .description(
      "For CI jobs that scheduled a post: blocks until every target platform of the post has a result (the platforms of its payloads; --expect N overrides), polling with backoff that keeps within the read rate limit. With --listen-port it also listens for the service's webhooks and polls as soon as one for this post arrives. Exit 0 when all succeeded, 7 when any failed (the failures are printed), 1 on timeout (with what is still missing), 5/6 on rate limiting or network trouble. Here --timeout is the whole wait (default 10m); each request keeps a 30s limit.",
    )
    .requiredOption('--post <id>', 'the post to wait for')
    .option('--timeout <duration>', 'give up after this long (default 10m)')
    .option('--expect <n>', 'number of results to wait for, instead of the post\'s platforms')
    .option('--listen-port <port>', 'also receive webhooks on 127.0.0.1:<port>/webhooks and poll when one arrives')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results wait --post post_01HZX2
  socialpub results wait --post post_01HZX2 --timeout 30m --json > results.json
  socialpub results wait --post post_01HZX2 --listen-port 4567
  socialpub results wait --post post_01HZX2 --expect 2`,
    )
    .action(action(ctx, async (flags: WaitFlags) => (await import('./wait.run.js')).runWait(ctx, flags)));
}
