// `socialpub results wait --post ID...`: for CI, block until every target of the posts has a result.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { collect } from '../../flags/text.js';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';

/**
 * The program knows --timeout (per request) and takes it wherever it stands, so the command line
 * itself says whose it is: after `wait` it is the wait's, before it the per-request limit.
 */
export function splitTimeouts(argv: readonly string[] | undefined): { wait?: string; request?: string } {
  if (!argv) return {};
  const at = argv.findIndex((a, i) => a === 'wait' && argv.slice(0, i).includes('results'));
  const last = (args: readonly string[]) => {
    let value: string | undefined;
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--') break;
      if (args[i] === '--timeout') value = args[++i];
      else if (args[i]!.startsWith('--timeout=')) value = args[i]!.slice('--timeout='.length);
    }
    return value;
  };
  const wait = at < 0 ? undefined : last(argv.slice(at + 1));
  const request = last(at < 0 ? argv : argv.slice(0, at));
  return { ...(wait !== undefined ? { wait } : {}), ...(request !== undefined ? { request } : {}) };
}

export type WaitFlags = FlagsOf<typeof waitCommand>;

function waitCommand(results: CommandUnknownOpts) {
  return results
    .command('wait')
    .summary('wait until every target of the posts has a result; exit 7 if any failed')
    .description(
      "For CI jobs that scheduled posts: blocks until every target platform of each --post has a result (the platforms of its payloads; --expect N results per post overrides), polling with backoff that keeps within the read rate limit. With --listen-port it also listens for the service's webhooks and polls as soon as one for these posts arrives. An outage (connection refused, 5xx) is ridden out until the wait's own timeout, with a line on stderr when the service stops and starts answering. A draft fails at once (exit 2: schedule it first), and so does a post due after the wait would end (exit 2: a longer --timeout). Exit 0 when all succeeded, 7 when any target of any post failed (the failures are printed), 8 when the wait gave up (its --timeout passed with targets still unreported; what is missing is named), 5/6 on rate limiting or network trouble that outlasts the wait. A Retry-After that ends within the wait is slept through; polls keep their normal cadence while the read limit has room and slow down only as it runs short, leaving its last tenth to the rest of the workspace (unless --spend-budget).\n\nTwo timeouts: `results wait --timeout` (after `wait`) is the whole wait (default 10m); the global `socialpub --timeout` (before the command) stays the limit of each request (default here 30s, never longer than the wait).",
    )
    .requiredOption('--post <id>', 'a post to wait for (repeatable)', collect)
    .option('--timeout <duration>', 'the whole wait: give up after this long (default 10m); the global --timeout is per request')
    .option('--account <ref>', "only these accounts' targets: an id, @handle or platform:@handle (repeatable or comma-separated)", collect)
    .option('--expect <n>', 'number of results to wait for per post, instead of the post\'s platforms')
    .option('--listen-port <port>', 'also receive webhooks on 127.0.0.1:<port>/webhooks and poll when one arrives')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results wait --post post_01HZX2
  socialpub results wait --post post_01HZX2 --post post_01HZX3 --timeout 30m
  socialpub results wait --post post_01HZX2 --listen-port 4567
  socialpub results wait --post post_01HZX2 --expect 2`,
    );
}

export function defineWait(results: CommandUnknownOpts, ctx: Context, argv?: readonly string[]): void {
  waitCommand(results).action(
    action(ctx, async (flags) => {
      const timeouts = splitTimeouts(argv);
      return (await import('./wait.run.js')).runWait(ctx, { ...flags, timeout: timeouts.wait ?? flags.timeout, requestTimeout: timeouts.request });
    }),
  );
}
